package dev.degradation.web;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.DependencySignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.overload.Admission;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.Admission.NotAdmitted;
import dev.degradation.overload.Deadline;
import dev.degradation.engine.OverloadSignal;

/**
 * The servlet filter as it was before the request decision moved out of it into
 * {@link RequestDecider} (commit 68f38fc), stale copies left out: the baseline that
 * {@code dev.degradation.benchmarks.StackDecisionBenchmark} measures the new adapters against in
 * the same run. Not part of the product.
 */
public class PreviousDegradationFilter implements Filter {

	private static final Log logger = LogFactory.getLog(PreviousDegradationFilter.class);

	/**
	 * Headers a failed handler may have set that describe its answer, not the fallback: they are
	 * not kept when the fallback replaces it (nor are its cookies, but the container's session
	 * cookie). Lower case; names starting with {@code content-} and {@code x-degrad} too.
	 */
	private static final Set<String> ANSWER_HEADERS = Set.of("etag", "last-modified", "location", "retry-after",
			"vary", "cache-control", "expires", "pragma", "age", "link", "refresh", "transfer-encoding", "trailer");

	/**
	 * The default order: right after Spring Security's filter chain (order -100), before anything
	 * that would do work for a request that is about to be shed.
	 */
	public static final int DEFAULT_ORDER = -100 + 10;

	/**
	 * The request attribute that holds the cause of a shed request's fallback (a {@code String},
	 * as in {@link DegradationHeaders#REASON}), for observations and logs that run after the
	 * filter answered.
	 */
	public static final String SHED_CAUSE_ATTRIBUTE = PreviousDegradationFilter.class.getName() + ".SHED_CAUSE";

	private final DegradationEngine engine;

	/**
	 * The table of the current manifest and of the one before it: during a reload a request may
	 * still read the previous state, and it must then look its route up in the previous table.
	 */
	private volatile Tables tables;

	private final @Nullable PathPattern reserved;

	private final boolean levelOnEveryAnswer;

	private final @Nullable OverloadSignal overload;

	private final String deadlineHeader;

	private final Duration maxDeadline;

	private final PreviousCheapAnswerGate cheapAnswers = PreviousCheapAnswerGate.standard();

	private final PreviousFallbackWriters writers = new PreviousFallbackWriters();

	/**
	 * Create a filter that sends {@code X-Degradation-Level} on every answer.
	 * @param engine the engine whose state decides what is shed
	 * @param routes the compiled routes of the engine's manifest
	 * @param reservedBasePath a base path that is never shed (the Actuator's), or {@code null}
	 */
	public PreviousDegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath) {
		this(engine, routes, reservedBasePath, true);
	}

	/**
	 * Create a filter.
	 * @param engine the engine whose state decides what is shed
	 * @param routes the compiled routes of the engine's manifest
	 * @param reservedBasePath a base path that is never shed (the Actuator's), or {@code null}
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too (a public service may not want to show its state)
	 */
	public PreviousDegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath,
			boolean levelOnEveryAnswer) {
		this(engine, routes, reservedBasePath, levelOnEveryAnswer, null, "x-envoy-expected-rq-timeout-ms",
				Duration.ofSeconds(30));
	}

	/**
	 * Create a filter that also admits requests under load.
	 * @param engine the engine whose state decides what is shed
	 * @param routes the compiled routes of the engine's manifest
	 * @param reservedBasePath a base path that is never shed nor refused (the Actuator's), or
	 * {@code null}
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too
	 * @param overload the overload signal whose admission decides under load, or {@code null}
	 * @param deadlineHeader the request header that carries the caller's deadline in milliseconds
	 * @param maxDeadline the longest deadline trusted, whatever the header says
	 */
	public PreviousDegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath,
			boolean levelOnEveryAnswer, @Nullable OverloadSignal overload, String deadlineHeader,
			Duration maxDeadline) {
		this.engine = engine;
		this.tables = new Tables(routes, routes);
		this.reserved = (reservedBasePath != null && !reservedBasePath.isEmpty() && !reservedBasePath.equals("/"))
				? PathPatternParser.defaultInstance.parse(reservedBasePath + "/**") : null;
		this.levelOnEveryAnswer = levelOnEveryAnswer;
		this.overload = overload;
		this.deadlineHeader = deadlineHeader;
		this.maxDeadline = maxDeadline;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		DegradationState state = this.engine.state();
		HttpServletRequest httpRequest = (HttpServletRequest) request;
		HttpServletResponse httpResponse = (HttpServletResponse) response;
		OverloadSignal.Active admission = (this.overload != null) ? this.overload.active() : null;
		ShedRoute route = null;
		if (admission != null) {
			// Under admission every request's path is parsed once, for both questions: is it the
			// Actuator's (never refused), and which route is it.
			boolean alreadyParsed = ServletRequestPathUtils.hasParsedRequestPath(httpRequest);
			RequestPath requestPath = alreadyParsed ? ServletRequestPathUtils.getParsedRequestPath(httpRequest)
					: ServletRequestPathUtils.parseAndCache(httpRequest);
			boolean reserved;
			try {
				PathContainer path = requestPath.pathWithinApplication();
				reserved = this.reserved != null && this.reserved.matches(path);
				route = reserved ? null : find(this.tables.of(state.manifest()), httpRequest.getMethod(), path);
			}
			finally {
				if (!alreadyParsed) {
					ServletRequestPathUtils.clearParsedRequestPath(httpRequest);
				}
			}
			String cause = (route != null) ? state.shedCause(route.index()) : null;
			if (cause != null) {
				answerInTurn(httpRequest, httpResponse, route, state, cause, state.shedKind(route.index()), null,
						deadline(httpRequest));
				return;
			}
			if (!reserved) {
				admit(admission, httpRequest, httpResponse, chain, state, route);
				return;
			}
		}
		else if (state.shedsAnything()) {
			route = route(httpRequest, this.tables.of(state.manifest()));
			String cause = (route != null) ? state.shedCause(route.index()) : null;
			if (cause != null) {
				answerInTurn(httpRequest, httpResponse, route, state, cause, state.shedKind(route.index()), null,
						deadline(httpRequest));
				return;
			}
		}
		else {
			RouteTable table = this.tables.of(state.manifest());
			if (table != null && table.keepsCopies()) {
				// Only a manifest with a 'stale' route looks up live requests, to keep their answers.
				route = route(httpRequest, table);
			}
		}
		if (this.levelOnEveryAnswer) {
			httpResponse.setHeader(DegradationHeaders.LEVEL, state.levelHeader());
		}
		proceed(httpRequest, httpResponse, chain, state, route);
	}

	/**
	 * Let a request through to the application, keeping a copy of the answer of a live GET of a
	 * {@code stale} route.
	 */
	private void proceed(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			DegradationState state, @Nullable ShedRoute route) throws IOException, ServletException {
		try {
			chain.doFilter(request, response);
		}
		catch (IOException | ServletException | RuntimeException ex) {
			if (!fallBackFromRefusedCall(request, response, state, route, ex)) {
				throw ex;
			}
		}
	}

	/**
	 * Answer with the route's fallback if the handler failed because a guarded call to a
	 * dependency the route requires got no answer, and nothing was sent yet.
	 * @return whether the fallback was written
	 */
	private boolean fallBackFromRefusedCall(HttpServletRequest request, HttpServletResponse response,
			DegradationState state, @Nullable ShedRoute route, Throwable failure) throws IOException {
		DependencyUnavailableException refused = cause(failure, DependencyUnavailableException.class);
		if (refused == null || !gotNoAnswer(refused) || response.isCommitted() || request.isAsyncStarted()) {
			return false;
		}
		if (route == null) {
			// Nothing was shed when the request came in, so it was not looked up then.
			route = route(request, this.tables.of(state.manifest()));
		}
		if (route == null || !route.route().requires().contains(refused.dependency())) {
			return false;
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Answering " + request.getMethod() + " " + request.getRequestURI() + " with its fallback: "
					+ refused.getMessage());
		}
		// The request's observation still records why, though the answer is a good one.
		ServerHttpObservationFilter.findObservationContext(request).ifPresent((context) -> context.setError(refused));
		replaceAnswer(request, response);
		shed(request, response, route, state, "dependency:" + refused.dependency(),
				DependencySignal.KIND);
		return true;
	}

	/**
	 * Whether the dependency gave no answer: the breaker kept the call back, the time ran out, or
	 * the call failed on its way (an I/O error). Any other failure of a guarded call, such as a
	 * bug in the code that made it, is the application's error, not a reason for the fallback.
	 */
	private static boolean gotNoAnswer(DependencyUnavailableException refused) {
		return refused.reason() != DependencyUnavailableException.Reason.FAILED
				|| cause(refused.getCause(), IOException.class) != null;
	}

	/**
	 * Clear what a failed handler began of its answer, its body and its writer or stream among
	 * it, keeping the headers of the filters before it (CORS, tracing) and the container's
	 * session cookie, so that the fallback says nothing of work that did not happen.
	 */
	private static void replaceAnswer(HttpServletRequest request, HttpServletResponse response) {
		String sessionCookie = request.getServletContext().getSessionCookieConfig().getName();
		String sessionCookiePrefix = ((sessionCookie != null) ? sessionCookie : "JSESSIONID") + "=";
		List<String[]> kept = new ArrayList<>();
		for (String name : new ArrayList<>(response.getHeaderNames())) {
			String lower = name.toLowerCase(Locale.ROOT);
			if (ANSWER_HEADERS.contains(lower) || lower.startsWith("content-") || lower.startsWith("x-degrad")) {
				continue;
			}
			for (String value : response.getHeaders(name)) {
				if (!lower.equals("set-cookie") || value.startsWith(sessionCookiePrefix)) {
					kept.add(new String[] { name, value });
				}
			}
		}
		response.reset();
		for (String[] header : kept) {
			response.addHeader(header[0], header[1]);
		}
	}

	/** The first exception of a type in a cause chain, looked for 16 causes deep at most. */
	private static <T extends Throwable> @Nullable T cause(@Nullable Throwable failure, Class<T> type) {
		Throwable cause = failure;
		for (int depth = 0; cause != null && depth < 16; depth++) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
			cause = (cause.getCause() != cause) ? cause.getCause() : null;
		}
		return null;
	}

	/**
	 * Admission under load: a degradable request over its tier's share answers its fallback at
	 * once; a core request waits at most the queue bound and its caller's deadline, then is
	 * refused with Retry-After. An admitted request holds its place until it ends, asynchronously
	 * too, and tells the limit how it ended: served (a sample), failed or answered from its
	 * fallback (ignored), or served after its caller gave up (dropped).
	 */
	private void admit(OverloadSignal.Active active, HttpServletRequest request, HttpServletResponse response,
			FilterChain chain, DegradationState state, @Nullable ShedRoute route) throws IOException, ServletException {
		Admission admission = active.admission();
		int rank = (route != null) ? active.rank(route.priority()) : admission.coreRank();
		long deadline = deadline(request);
		Admission.Decision decision = admission.decide(rank, deadline);
		if (decision == NotAdmitted.WAIT) {
			Admitted waited = admission.await(admission.waitBound(deadline));
			decision = (waited != null) ? waited : NotAdmitted.REFUSED;
		}
		if (!(decision instanceof Admitted admitted)) {
			if (decision == NotAdmitted.SHED && route != null) {
				answerInTurn(request, response, route, state, OverloadSignal.CAUSE, OverloadSignal.KIND, null,
						deadline);
			}
			else {
				answerInTurn(request, response, null, state, OverloadSignal.CAUSE, OverloadSignal.KIND, active,
						deadline);
			}
			return;
		}
		boolean async = false;
		boolean failed = true;
		try {
			if (this.levelOnEveryAnswer) {
				response.setHeader(DegradationHeaders.LEVEL, state.levelHeader());
			}
			proceed(request, response, chain, state, route);
			if (request.isAsyncStarted()) {
				request.getAsyncContext().addListener(new AdmittedEnd(admitted, request, response, deadline));
				async = true;
			}
			failed = false;
		}
		finally {
			if (!async) {
				end(admitted, request, response, deadline, failed);
			}
		}
	}

	/**
	 * Tell the limit how an admitted request ended. Only a served request is a sample of the
	 * service's latency: an error (an exception or a 5xx), a caller that left, and an answer from
	 * the route's fallback say nothing of it, or would teach the limit that failing fast is the
	 * service's speed. A request served after its caller's deadline is a loss.
	 */
	private static void end(Admitted admitted, HttpServletRequest request, HttpServletResponse response,
			long deadline, boolean failed) {
		if (failed || response.getStatus() >= 500 || request.getAttribute(SHED_CAUSE_ATTRIBUTE) != null) {
			admitted.onIgnore();
		}
		else if (deadline > 0 && admitted.elapsedNanos() > deadline) {
			admitted.onDropped();
		}
		else {
			admitted.onSuccess();
		}
	}

	/**
	 * Refused: the configured status (503 by default, or 429) with a bounded Retry-After, marked
	 * so that it is never taken for the service's own answer nor cached.
	 */
	private static void refuse(HttpServletRequest request, HttpServletResponse response,
			OverloadSignal.Active active) {
		request.setAttribute(SHED_CAUSE_ATTRIBUTE, OverloadSignal.CAUSE);
		response.setStatus(active.refusalStatus());
		response.setHeader("Retry-After", active.retryAfterHeader());
		response.setHeader(DegradationHeaders.DEGRADED, "true");
		response.setHeader(DegradationHeaders.REASON, OverloadSignal.CAUSE);
		response.setHeader("Cache-Control", "no-store");
		response.setContentLength(0);
	}

	/**
	 * Ends an asynchronous admitted request when it completes, fails or times out.
	 */
	private record AdmittedEnd(Admitted admitted, HttpServletRequest request, HttpServletResponse response,
			long deadline) implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			end(this.admitted, this.request, this.response, this.deadline, false);
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			this.admitted.onDropped();
		}

		@Override
		public void onError(AsyncEvent event) {
			this.admitted.onIgnore();
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this);
		}

	}

	/**
	 * Answer a shed route's fallback (with {@code route}) or refuse the request (with
	 * {@code refusal}) in turn with the other cheap answers ({@link PreviousCheapAnswerGate}), the answer
	 * sent before the turn is given back. A fallback too large to be sure of its send buffer takes
	 * no turn.
	 */
	private void answerInTurn(HttpServletRequest request, HttpServletResponse response, @Nullable ShedRoute route,
			DegradationState state, String cause, String kind, OverloadSignal.@Nullable Active refusal,
			long deadline) throws IOException {
		boolean turn = (route == null || route.writer().small()) && this.cheapAnswers.enter(deadline);
		try {
			if (route != null) {
				shed(request, response, route, state, cause, kind);
			}
			else if (refusal != null) {
				refuse(request, response, refusal);
			}
			if (turn) {
				response.flushBuffer();
			}
		}
		finally {
			if (turn) {
				this.cheapAnswers.leave();
			}
		}
	}

	private long deadline(HttpServletRequest request) {
		return Deadline.remainingNanos(request.getHeader(this.deadlineHeader), this.maxDeadline);
	}

	private void shed(HttpServletRequest request, HttpServletResponse response, ShedRoute route,
			DegradationState state, String cause, String kind) throws IOException {
		// The standard HTTP metrics name a shed request by its manifest pattern, as they name a
		// request that a handler served by its mapping, instead of UNKNOWN.
		request.setAttribute(SHED_CAUSE_ATTRIBUTE, cause);
		ServerHttpObservationFilter.findObservationContext(request)
			.ifPresent((context) -> context.setPathPattern(route.route().path()));
		this.writers.write(route, request, response, state, cause);
		state.fallbackCounts().record(route.index(), kind);
	}

	/**
	 * Make a table the current one, keeping the current one as the previous: called before the
	 * engine replaces its manifest with the table's, so that every state a request can read has
	 * its table.
	 * @param table the table of the manifest about to be active
	 */
	public void prepare(RouteTable table) {
		this.tables = new Tables(table, this.tables.current());
	}

	private @Nullable ShedRoute route(HttpServletRequest request, @Nullable RouteTable table) {
		if (table == null) {
			return null;
		}
		RouteIndex routes = table.index(request.getMethod());
		if (routes == null) {
			// No route has this method: spare the request the parsing of its path.
			return null;
		}
		boolean alreadyParsed = ServletRequestPathUtils.hasParsedRequestPath(request);
		RequestPath requestPath = alreadyParsed ? ServletRequestPathUtils.getParsedRequestPath(request)
				: ServletRequestPathUtils.parseAndCache(request);
		try {
			PathContainer path = requestPath.pathWithinApplication();
			ShedRoute route = routes.find(path);
			if (route == null) {
				return null;
			}
			return (this.reserved != null && this.reserved.matches(path)) ? null : route;
		}
		finally {
			if (!alreadyParsed) {
				ServletRequestPathUtils.clearParsedRequestPath(request);
			}
		}
	}

	private static @Nullable ShedRoute find(@Nullable RouteTable table, String method, PathContainer path) {
		RouteIndex routes = (table != null) ? table.index(method) : null;
		return (routes != null) ? routes.find(path) : null;
	}

	/**
	 * The current route table and the one before it.
	 */
	private record Tables(RouteTable current, RouteTable previous) {

		@Nullable RouteTable of(DegradationManifest manifest) {
			if (this.current.manifest() == manifest) {
				return this.current;
			}
			return (this.previous.manifest() == manifest) ? this.previous : null;
		}

	}

}

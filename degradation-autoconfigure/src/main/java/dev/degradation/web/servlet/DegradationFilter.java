package dev.degradation.web.servlet;

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

import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.overload.Admission;
import dev.degradation.overload.Admission.Admitted;

import dev.degradation.overload.RequestPriority;
import dev.degradation.web.Answer;
import dev.degradation.web.Decision;
import dev.degradation.web.DegradationHeaders;
import dev.degradation.web.FallbackWriter;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RequestView;
import dev.degradation.web.RouteTable;
import dev.degradation.web.StaleAnswers;

/**
 * The servlet stack's adapter of the request decision ({@link RequestDecider}): answers a request
 * with its route's fallback when the route is shed (by the level, or on its own
 * because a dependency it requires failed), and lets every other request through with the
 * {@code X-Degradation-Level} header.
 *
 * <p>While nothing is shed the filter reads one volatile field and sets one header: it does not
 * even parse the path, unless the manifest has a {@code stale} route. Then the live requests are
 * looked up too, and only the answer of a {@code GET} request of a {@code stale} route is copied
 * as it is written ({@link StaleAnswers}); every other route's request passes as before. When
 * something is shed it resolves the path exactly as Spring MVC does
 * ({@link ServletRequestPathUtils}), so that the filter and the controllers cannot disagree about
 * which route a request is. It must be registered after Spring Security, for the {@code REQUEST}
 * dispatcher type only, so that an unauthenticated request is refused before it could see a
 * fallback.
 *
 * <p>A request that was let through is answered with its route's fallback too when its handler
 * fails because a guarded call to a dependency the route requires got no answer (a
 * {@link DependencyUnavailableException} anywhere in the cause chain of an exception that the
 * application did not handle itself: the breaker kept the call back, its time ran out, or it
 * failed with an I/O error), as long as nothing of the answer was sent: the route cannot work without that dependency, which is what
 * its fallback is declared for. This covers the calls between a dependency's failure and the
 * engine's shedding of its routes, and the calls a half-open breaker turns away.
 */
public class DegradationFilter implements Filter {

	private static final Log logger = LogFactory.getLog(DegradationFilter.class);

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
	public static final String SHED_CAUSE_ATTRIBUTE = RequestDecider.SHED_CAUSE_ATTRIBUTE;

	private final RequestDecider decider;

	private final boolean levelOnEveryAnswer;

	private final CheapAnswerGate cheapAnswers = CheapAnswerGate.standard();

	/**
	 * Create a filter that sends {@code X-Degradation-Level} on every answer.
	 * @param engine the engine whose state decides what is shed
	 * @param routes the compiled routes of the engine's manifest
	 * @param reservedBasePath a base path that is never shed (the Actuator's), or {@code null}
	 */
	public DegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath) {
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
	public DegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath,
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
	public DegradationFilter(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath,
			boolean levelOnEveryAnswer, @Nullable OverloadSignal overload, String deadlineHeader,
			Duration maxDeadline) {
		this(new RequestDecider(engine, routes, reservedBasePath, overload, deadlineHeader, maxDeadline),
				levelOnEveryAnswer);
	}

	/**
	 * Create a filter that carries out a decider's decisions.
	 * @param decider the request decision
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too
	 */
	public DegradationFilter(RequestDecider decider, boolean levelOnEveryAnswer) {
		this.decider = decider;
		this.levelOnEveryAnswer = levelOnEveryAnswer;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		HttpServletRequest httpRequest = (HttpServletRequest) request;
		HttpServletResponse httpResponse = (HttpServletResponse) response;
		// A healthy service's request is let through without reading it, or allocating.
		Decision decision = this.decider.withoutLookup();
		ServletRequestView view = null;
		if (decision == null) {
			view = new ServletRequestView(httpRequest);
			try {
				decision = this.decider.decide(view);
			}
			finally {
				view.release();
			}
		}
		if (decision instanceof Decision.Wait wait) {
			Admission admission = wait.overload().admission();
			Admitted admitted = admission.await(wait.waitNanos());
			decision = this.decider.afterWait(wait, admitted);
		}
		if (decision instanceof Decision.Proceed proceed) {
			proceed(httpRequest, view, httpResponse, chain, proceed);
		}
		else {
			answerInTurn((view != null) ? view : new ServletRequestView(httpRequest), httpResponse, decision);
		}
	}

	/**
	 * Let a request through to the application, keeping a copy of the answer of a live GET of a
	 * {@code stale} route; an admitted request holds its place until it ends, asynchronously too,
	 * and tells the limit how it ended.
	 */
	private void proceed(HttpServletRequest request, @Nullable ServletRequestView view, HttpServletResponse response,
			FilterChain chain, Decision.Proceed proceed) throws IOException, ServletException {
		if (this.levelOnEveryAnswer) {
			response.setHeader(DegradationHeaders.LEVEL, proceed.state().levelHeader());
		}
		boolean async = false;
		boolean failed = true;
		// The priority the request is served at, for the guarded calls made while serving it.
		RequestPriority.Held priority = proceed.passesPriority() ? RequestPriority.hold(proceed.priority()) : null;
		try {
			Admitted admitted = proceed.admitted();
			pass((admitted != null && TimeLimitedBodyRequest.mayHaveBody(request))
					? new TimeLimitedBodyRequest(request, admitted, this.decider.bodyTimeLimitNanos(proceed)) : request,
					view, response, chain, proceed);
			if (proceed.admitted() != null && request.isAsyncStarted()) {
				request.getAsyncContext().addListener(new AdmittedEnd(proceed, request, response));
				async = true;
			}
			failed = false;
		}
		finally {
			if (priority != null) {
				priority.close();
			}
			if (!async) {
				end(proceed, request, response, failed);
			}
		}
	}

	private void pass(HttpServletRequest request, @Nullable ServletRequestView view, HttpServletResponse response,
			FilterChain chain, Decision.Proceed proceed) throws IOException, ServletException {
		try {
			if (proceed.route() != null && proceed.route().writer() instanceof FallbackWriter.Stale stale
					&& request.getMethod().equals("GET")) {
				passKeepingCopy((view != null) ? view : new ServletRequestView(request), response, chain,
						stale.copies());
				return;
			}
			chain.doFilter(request, response);
		}
		catch (IOException | ServletException | RuntimeException ex) {
			if (!fallBackFromRefusedCall((view != null) ? view : new ServletRequestView(request), response, proceed,
					ex)) {
				throw ex;
			}
		}
	}

	/**
	 * Answer with the route's fallback if the handler failed because a guarded call to a
	 * dependency the route requires got no answer, and nothing was sent yet.
	 * @return whether the fallback was written
	 */
	private boolean fallBackFromRefusedCall(ServletRequestView view, HttpServletResponse response,
			Decision.Proceed proceed, Throwable failure) throws IOException {
		HttpServletRequest request = view.request;
		DependencyUnavailableException refused = DependencyUnavailableException.withoutAnswer(failure);
		if (refused == null || response.isCommitted() || request.isAsyncStarted()) {
			return false;
		}
		Decision.Shed fallback;
		try {
			fallback = this.decider.afterRefusedCall(proceed, view, refused.dependency());
		}
		finally {
			view.release();
		}
		if (fallback == null) {
			return false;
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Answering " + request.getMethod() + " " + request.getRequestURI() + " with its fallback: "
					+ refused.getMessage());
		}
		// The request's observation still records why, though the answer is a good one.
		ServerHttpObservationFilter.findObservationContext(request).ifPresent((context) -> context.setError(refused));
		replaceAnswer(request, response);
		shed(view, response, fallback);
		return true;
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

	/**
	 * Tell the limit how an admitted request ended: an exception, a 5xx or the route's fallback
	 * say nothing of the service's latency.
	 */
	private static void end(Decision.Proceed proceed, HttpServletRequest request, HttpServletResponse response,
			boolean failed) {
		proceed.end(failed, response.getStatus(), request.getAttribute(SHED_CAUSE_ATTRIBUTE) != null);
	}

	/**
	 * Ends an asynchronous admitted request when it completes, fails or times out.
	 */
	private record AdmittedEnd(Decision.Proceed proceed, HttpServletRequest request,
			HttpServletResponse response) implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			end(this.proceed, this.request, this.response, false);
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			this.proceed.dropped();
		}

		@Override
		public void onError(AsyncEvent event) {
			end(this.proceed, this.request, this.response, true);
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this);
		}

	}

	private void passKeepingCopy(ServletRequestView view, HttpServletResponse response, FilterChain chain,
			StaleAnswers.RouteCopies copies) throws IOException, ServletException {
		String key = copies.key(view);
		if (key == null) {
			// Credentials or cookies the route does not vary by: this answer is one user's.
			chain.doFilter(view.request, response);
			return;
		}
		CopyingResponse copying = new CopyingResponse(response, copies, key);
		chain.doFilter(view.request, copying);
		copying.storeIfShareable(view.request);
	}

	/**
	 * Answer a shed route's fallback or refuse the request in turn with the other cheap answers
	 * ({@link CheapAnswerGate}), the answer sent before the turn is given back. A fallback too
	 * large to be sure of its send buffer takes no turn.
	 */
	private void answerInTurn(ServletRequestView view, HttpServletResponse response, Decision decision)
			throws IOException {
		boolean small = !(decision instanceof Decision.Shed shed) || shed.small();
		boolean turn = small && this.cheapAnswers.enter(decision.deadlineNanos());
		try {
			if (decision instanceof Decision.Shed shed) {
				shed(view, response, shed);
			}
			else if (decision instanceof Decision.Refuse refusal) {
				view.request.setAttribute(SHED_CAUSE_ATTRIBUTE, OverloadSignal.CAUSE);
				write(response, refusal.answer());
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

	private static void shed(ServletRequestView view, HttpServletResponse response, Decision.Shed shed)
			throws IOException {
		// The standard HTTP metrics name a shed request by its manifest pattern, as they name a
		// request that a handler served by its mapping, instead of UNKNOWN.
		HttpServletRequest request = view.request;
		request.setAttribute(SHED_CAUSE_ATTRIBUTE, shed.cause());
		ServerHttpObservationFilter.findObservationContext(request)
			.ifPresent((context) -> context.setPathPattern(shed.route().route().path()));
		write(response, shed.answer(view));
	}

	/**
	 * Write an answer the starter prepared.
	 * @param response the response, not yet committed
	 * @param answer the answer
	 * @throws IOException if the body cannot be written
	 */
	static void write(HttpServletResponse response, Answer answer) throws IOException {
		response.setStatus(answer.status());
		String[] headers = answer.headers();
		for (int i = 0; i < headers.length; i += 2) {
			if (headers[i].equalsIgnoreCase("Content-Type")) {
				response.setContentType(headers[i + 1]);
			}
			else {
				response.setHeader(headers[i], headers[i + 1]);
			}
		}
		if (answer.hasContentLength()) {
			response.setContentLength(answer.body().length);
		}
		if (answer.body().length > 0) {
			response.getOutputStream().write(answer.body());
		}
	}

	/**
	 * Rank each request in admission by the priority its caller passed, and hold the priority it
	 * is served at for the calls made while serving it ({@link RequestDecider#setPriorityHeader}).
	 * @param header the request header that carries the priority, or {@code null} for neither
	 */
	public void setPriorityHeader(@Nullable String header) {
		this.decider.setPriorityHeader(header);
	}

	/**
	 * Make a table the current one, keeping the current one as the previous: called before the
	 * engine replaces its manifest with the table's, so that every state a request can read has
	 * its table.
	 * @param table the table of the manifest about to be active
	 */
	public void prepare(RouteTable table) {
		this.decider.prepare(table);
	}

	/**
	 * A servlet request as the decision reads it; its path is resolved exactly as Spring MVC
	 * does ({@link ServletRequestPathUtils}), only when asked for, and released after.
	 */
	private static final class ServletRequestView implements RequestView {

		private final HttpServletRequest request;

		private @Nullable PathContainer path;

		private boolean parsedHere;

		ServletRequestView(HttpServletRequest request) {
			this.request = request;
		}

		@Override
		public String method() {
			return this.request.getMethod();
		}

		@Override
		public PathContainer pathWithinApplication() {
			PathContainer path = this.path;
			if (path == null) {
				RequestPath requestPath;
				if (ServletRequestPathUtils.hasParsedRequestPath(this.request)) {
					requestPath = ServletRequestPathUtils.getParsedRequestPath(this.request);
				}
				else {
					requestPath = ServletRequestPathUtils.parseAndCache(this.request);
					this.parsedHere = true;
				}
				path = requestPath.pathWithinApplication();
				this.path = path;
			}
			return path;
		}

		/** Clear the parsed path this view cached on the request, as if it was never parsed. */
		void release() {
			if (this.parsedHere) {
				ServletRequestPathUtils.clearParsedRequestPath(this.request);
				this.parsedHere = false;
			}
		}

		@Override
		public String rawPath() {
			return this.request.getRequestURI();
		}

		@Override
		public @Nullable String rawQuery() {
			return this.request.getQueryString();
		}

		@Override
		public @Nullable String header(String name) {
			return this.request.getHeader(name);
		}

	}

}

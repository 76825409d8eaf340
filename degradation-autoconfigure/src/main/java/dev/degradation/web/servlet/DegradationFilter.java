package dev.degradation.web.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.overload.Admission.Admitted;

import dev.degradation.overload.RequestPriority;
import dev.degradation.web.Answer;
import dev.degradation.web.Decision;
import dev.degradation.web.DegradationHeaders;
import dev.degradation.web.ReplacedAnswer;
import dev.degradation.web.RequestDecider;
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

	/**
	 * The default order: right after Spring Security's filter chain (order -100), before anything
	 * that would do work for a request that is about to be shed.
	 */
	public static final int DEFAULT_ORDER = RequestDecider.DEFAULT_ORDER;

	private final RequestDecider decider;

	private final boolean levelOnEveryAnswer;

	private final CheapAnswerGate cheapAnswers;

	/**
	 * Create a filter that carries out a decider's decisions.
	 * @param decider the request decision
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too (a public service may not want to show its state)
	 */
	public DegradationFilter(RequestDecider decider, boolean levelOnEveryAnswer) {
		this(decider, levelOnEveryAnswer, CheapAnswerGate.standard());
	}

	DegradationFilter(RequestDecider decider, boolean levelOnEveryAnswer, CheapAnswerGate cheapAnswers) {
		this.decider = decider;
		this.levelOnEveryAnswer = levelOnEveryAnswer;
		this.cheapAnswers = cheapAnswers;
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
			if (this.decider.readsBodyFirst(view, httpRequest.getContentLengthLong(), httpRequest.getContentType())) {
				// A body that arrives slowly holds this thread, never a place in admission.
				ArrivedBodyRequest arrived;
				try {
					arrived = ArrivedBodyRequest.read(httpRequest, httpRequest.getContentLength(),
							this.decider.bodyTimeoutNanos(view));
				}
				finally {
					view.release();
				}
				if (arrived == null) {
					write(httpResponse, this.decider.bodyTooSlow());
					return;
				}
				httpRequest = arrived;
				view = new ServletRequestView(httpRequest);
			}
			try {
				decision = this.decider.decide(view);
			}
			finally {
				view.release();
			}
		}
		if (decision instanceof Decision.Wait wait) {
			decision = this.decider.afterWait(wait, wait.await());
		}
		if (decision instanceof Decision.Proceed proceed) {
			proceed(httpRequest, view, httpResponse, chain, proceed);
		}
		else {
			answerInTurn((view != null) ? view : new ServletRequestView(httpRequest), httpResponse,
					(Decision.Answered) decision);
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
		// The simulation the request asked for itself, for the guarded calls made for it.
		RequestSimulation simulation = proceed.simulation();
		RequestSimulation.Held simulated = (simulation != null) ? RequestSimulation.hold(simulation) : null;
		try {
			Admitted admitted = proceed.admitted();
			pass((admitted != null && TimeLimitedBodyRequest.mayHaveBody(request))
					? new TimeLimitedBodyRequest(request, admitted, this.decider.bodyTimeLimitNanos(proceed)) : request,
					view, response, chain, proceed);
			if (proceed.admitted() != null && request.isAsyncStarted()) {
				request.getAsyncContext().addListener(new AdmittedEnd(this.decider, proceed, request, response));
				async = true;
			}
			failed = false;
		}
		finally {
			if (priority != null) {
				priority.close();
			}
			if (simulated != null) {
				simulated.close();
			}
			if (!async) {
				end(this.decider, proceed, request, response, failed);
			}
		}
	}

	private void pass(HttpServletRequest request, @Nullable ServletRequestView view, HttpServletResponse response,
			FilterChain chain, Decision.Proceed proceed) throws IOException, ServletException {
		try {
			StaleAnswers.RouteCopies copies = proceed.copies(request.getMethod());
			if (copies != null) {
				passKeepingCopy((view != null) ? view : new ServletRequestView(request), response, chain, copies);
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
		if (response.isCommitted() || request.isAsyncStarted()) {
			return false;
		}
		Decision.Shed fallback;
		try {
			fallback = this.decider.afterFailure(proceed, view, failure);
		}
		finally {
			view.release();
		}
		if (fallback == null) {
			return false;
		}
		// The request's observation still records why, though the answer is a good one.
		ServerHttpObservationFilter.findObservationContext(request).ifPresent((context) -> context.setError(failure));
		replaceAnswer(request, response);
		answer(view, response, fallback);
		return true;
	}

	/**
	 * Clear what a failed handler began of its answer, its body and its writer or stream among
	 * it, keeping what {@link ReplacedAnswer} keeps.
	 */
	private static void replaceAnswer(HttpServletRequest request, HttpServletResponse response) {
		String sessionCookie = request.getServletContext().getSessionCookieConfig().getName();
		String sessionCookieName = (sessionCookie != null) ? sessionCookie : "JSESSIONID";
		List<String[]> kept = new ArrayList<>();
		for (String name : new ArrayList<>(response.getHeaderNames())) {
			if (!ReplacedAnswer.keepsHeader(name)) {
				continue;
			}
			boolean cookie = name.equalsIgnoreCase("Set-Cookie");
			for (String value : response.getHeaders(name)) {
				if (!cookie || ReplacedAnswer.keepsSetCookie(value, sessionCookieName)) {
					kept.add(new String[] { name, value });
				}
			}
		}
		response.reset();
		for (String[] header : kept) {
			// The container may put its session cookie back itself as it resets (Tomcat does).
			if (!response.getHeaders(header[0]).contains(header[1])) {
				response.addHeader(header[0], header[1]);
			}
		}
	}

	/**
	 * Tell the limit how an admitted request ended, by the decider's one rule.
	 */
	private static void end(RequestDecider decider, Decision.Proceed proceed, HttpServletRequest request,
			HttpServletResponse response, boolean failed) {
		decider.end(proceed, failed, response.getStatus(),
				request.getAttribute(RequestDecider.SHED_CAUSE_ATTRIBUTE) != null);
	}

	/**
	 * Ends an asynchronous admitted request when it completes, fails or times out.
	 */
	private record AdmittedEnd(RequestDecider decider, Decision.Proceed proceed, HttpServletRequest request,
			HttpServletResponse response) implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			end(this.decider, this.proceed, this.request, this.response, false);
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			this.proceed.dropped();
		}

		@Override
		public void onError(AsyncEvent event) {
			end(this.decider, this.proceed, this.request, this.response, true);
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
	 * ({@link CheapAnswerGate}) while admitted requests are served, the answer sent before the turn
	 * is given back. A fallback too large to be sure of its send buffer takes no turn.
	 */
	private void answerInTurn(ServletRequestView view, HttpServletResponse response, Decision.Answered answered)
			throws IOException {
		boolean turn = answered.small() && this.cheapAnswers.enter(answered.deadlineNanos(), this.decider.serving());
		long since = turn ? System.nanoTime() : 0;
		try {
			answer(view, response, answered);
			if (turn) {
				response.flushBuffer();
			}
		}
		finally {
			if (turn) {
				this.cheapAnswers.leave(since);
			}
		}
	}

	private static void answer(ServletRequestView view, HttpServletResponse response, Decision.Answered answered)
			throws IOException {
		HttpServletRequest request = view.request;
		request.setAttribute(RequestDecider.SHED_CAUSE_ATTRIBUTE, answered.cause());
		String pattern = answered.pathPattern();
		if (pattern != null) {
			// The standard HTTP metrics name a shed request by its manifest pattern, as they name a
			// request that a handler served by its mapping, instead of UNKNOWN.
			ServerHttpObservationFilter.findObservationContext(request)
				.ifPresent((context) -> context.setPathPattern(pattern));
		}
		write(response, answered.answer(view));
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

}

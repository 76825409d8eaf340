package dev.degradation.web.servlet;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.ServerHttpObservationFilter;

import dev.degradation.overload.Admission.Admitted;
import dev.degradation.web.Answer;
import dev.degradation.web.CheapAnswerTurns;
import dev.degradation.web.Decision;
import dev.degradation.web.ReplacedAnswer;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RequestLifecycle;
import dev.degradation.web.StaleAnswers;

/**
 * A servlet request's {@link RequestLifecycle}: its steps in the servlet API, on the request's
 * thread, which may park (a wait for a place, a turn). An admitted request that goes on
 * asynchronously ends when its asynchronous processing does.
 */
final class ServletLifecycle extends RequestLifecycle<@Nullable Void, Exception> {

	private HttpServletRequest request;

	/**
	 * Spring MVC's {@code HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE}, by name: a servlet
	 * application need not have Spring MVC.
	 */
	private static final String BEST_MATCHING_PATTERN_ATTRIBUTE = "org.springframework.web.servlet.HandlerMapping.bestMatchingPattern";

	private final HttpServletResponse response;

	private final FilterChain chain;

	private @Nullable ServletRequestView view;

	private final FormLimits formLimits;

	private final BodyTimer bodyTimer;

	private @Nullable TimeLimitedAnswerResponse timedAnswer;

	ServletLifecycle(RequestDecider decider, boolean levelOnEveryAnswer, HttpServletRequest request,
			HttpServletResponse response, FilterChain chain, FormLimits formLimits, BodyTimer bodyTimer) {
		super(decider, levelOnEveryAnswer);
		this.request = request;
		this.response = response;
		this.chain = chain;
		this.formLimits = formLimits;
		this.bodyTimer = bodyTimer;
	}

	@Override
	protected ServletRequestView view() {
		ServletRequestView view = this.view;
		if (view == null) {
			view = new ServletRequestView(this.request);
			this.view = view;
		}
		return view;
	}

	@Override
	protected void viewRead() {
		ServletRequestView view = this.view;
		if (view != null) {
			view.release();
		}
	}

	@Override
	protected long contentLength() {
		return this.request.getContentLengthLong();
	}

	@Override
	protected @Nullable String contentType() {
		return this.request.getContentType();
	}

	@Override
	protected @Nullable Void readBodyFirst(long timeoutNanos, Step<Boolean, @Nullable Void, Exception> then)
			throws Exception {
		ArrivedBodyRequest arrived;
		try {
			arrived = ArrivedBodyRequest.read(this.request, this.request.getContentLength(), timeoutNanos);
		}
		finally {
			viewRead();
		}
		if (arrived != null) {
			this.request = arrived;
			this.view = null;
		}
		return then.then(arrived != null);
	}

	@Override
	protected @Nullable Void await(Decision.Wait wait, Step<@Nullable Admitted, @Nullable Void, Exception> then)
			throws Exception {
		return then.then(wait.await());
	}

	@Override
	protected @Nullable Void takeTurn(CheapAnswerTurns turns, Step<Boolean, @Nullable Void, Exception> then)
			throws Exception {
		return then.then(turns.enter());
	}

	@Override
	protected @Nullable Void sendInTurn(Action<@Nullable Void, Exception> answer, Runnable giveBack)
			throws Exception {
		try {
			answer.run();
			this.response.flushBuffer();
		}
		finally {
			giveBack.run();
		}
		return null;
	}

	@Override
	protected void header(String name, String value) {
		this.response.setHeader(name, value);
	}

	@Override
	protected @Nullable Void pass(@Nullable Admitted admitted, long bodyTimeLimitNanos,
			StaleAnswers.@Nullable RouteCopies copies, @Nullable String copyKey) throws Exception {
		HttpServletRequest request = this.request;
		HttpServletRequest passed = (admitted != null && TimeLimitedBodyRequest.mayHaveBody(request))
				? new TimeLimitedBodyRequest(request, admitted, bodyTimeLimitNanos, this.formLimits,
						this.bodyTimer) : request;
		HttpServletResponse answer = this.response;
		if (admitted != null) {
			TimeLimitedAnswerResponse timed = new TimeLimitedAnswerResponse(this.response, admitted,
					answerWaitLimitNanos(), this.bodyTimer);
			this.timedAnswer = timed;
			answer = timed;
		}
		Runnable heldForCalls = holdForCalls();
		boolean async = false;
		boolean failed = true;
		try {
			try {
				if (copies != null && copyKey != null) {
					CopyingResponse copying = new CopyingResponse(answer, copies, copyKey);
					this.chain.doFilter(passed, copying);
					copying.storeIfShareable(passed);
				}
				else {
					this.chain.doFilter(passed, answer);
				}
			}
			catch (IOException | ServletException | RuntimeException ex) {
				fallBack(ex, (failure) -> {
					throw ex;
				});
			}
			if (admitted != null && request.isAsyncStarted()) {
				request.getAsyncContext().addListener(new AdmittedEnd());
				async = true;
			}
			failed = false;
		}
		finally {
			heldForCalls.run();
			if (!async) {
				answerWritten();
				ended(failed, this.response.getStatus());
			}
		}
		return null;
	}

	@Override
	protected boolean answerStarted() {
		return this.response.isCommitted() || this.request.isAsyncStarted();
	}

	@Override
	protected void observeFailure(Throwable failure) {
		ServerHttpObservationFilter.findObservationContext(this.request)
			.ifPresent((context) -> context.setError(failure));
	}

	@Override
	protected void replaceAnswer() {
		String sessionCookie = this.request.getServletContext().getSessionCookieConfig().getName();
		List<Map.Entry<String, String>> kept = ReplacedAnswer.keptHeaders(List.copyOf(this.response.getHeaderNames()),
				this.response::getHeaders, (sessionCookie != null) ? sessionCookie : "JSESSIONID");
		this.response.reset();
		for (Map.Entry<String, String> header : kept) {
			// The container may put its session cookie back itself as it resets (Tomcat does).
			if (!this.response.getHeaders(header.getKey()).contains(header.getValue())) {
				this.response.addHeader(header.getKey(), header.getValue());
			}
		}
		// Jetty puts it back twice: each cookie is sent once.
		List<String> cookies = List.copyOf(this.response.getHeaders(HttpHeaders.SET_COOKIE));
		List<String> distinct = List.copyOf(new LinkedHashSet<>(cookies));
		if (distinct.size() < cookies.size()) {
			this.response.setHeader(HttpHeaders.SET_COOKIE, distinct.get(0));
			for (String cookie : distinct.subList(1, distinct.size())) {
				this.response.addHeader(HttpHeaders.SET_COOKIE, cookie);
			}
		}
	}

	@Override
	protected @Nullable String handledPattern() {
		if (this.request.getAttribute(BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof String pattern) {
			return pattern;
		}
		return (this.request.getAttribute(RequestDecider.HANDLED_ROUTE_ATTRIBUTE) instanceof String route) ? route
				: null;
	}

	@Override
	protected void answering(String cause, @Nullable String pathPattern) {
		this.request.setAttribute(RequestDecider.SHED_CAUSE_ATTRIBUTE, cause);
		if (pathPattern != null) {
			ServerHttpObservationFilter.findObservationContext(this.request)
				.ifPresent((context) -> context.setPathPattern(pathPattern));
		}
	}

	@Override
	protected @Nullable Void write(Answer answer) throws IOException {
		write(this.response, answer);
		return null;
	}

	@Override
	protected @Nullable Void lettingBodyGo(@Nullable Void written) throws IOException {
		if (!(this.request instanceof ArrivedBodyRequest)) {
			// A body read before the decision arrived whole.
			UnreadBody.letGo(this.request, this.response);
		}
		return null;
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

	/** The admitted request's answer is written, or will not be: stop watching its writes. */
	private void answerWritten() {
		TimeLimitedAnswerResponse timed = this.timedAnswer;
		if (timed != null) {
			timed.finished();
		}
	}

	/**
	 * Ends an asynchronous admitted request when it completes, fails or times out.
	 */
	private final class AdmittedEnd implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			answerWritten();
			ended(false, ServletLifecycle.this.response.getStatus());
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			answerWritten();
			dropped();
		}

		@Override
		public void onError(AsyncEvent event) {
			answerWritten();
			ended(true, ServletLifecycle.this.response.getStatus());
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this);
		}

	}

}

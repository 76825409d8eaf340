package dev.degradation.client;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

import dev.degradation.client.DependencyUnavailableException.Reason;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.overload.PassedPriority;
import dev.degradation.overload.RequestPriority;

/**
 * Guards every call a {@code RestClient} makes to a dependency's {@code base_url}; calls
 * elsewhere pass untouched. A 5xx answer counts as a failure for the breaker; 503 and 429 may
 * be retried after their {@code Retry-After}; each attempt passes the time it may take on in the
 * deadline header, so the dependency can stop working for a caller that has given up; and, when
 * a priority header is set, the {@link RequestPriority priority} of the request the call is made
 * for, so a dependency with the starter ranks the call by it in its admission.
 *
 * <p>Each attempt's time limit is offered to the HTTP client as its {@link AttemptLimit}. The
 * first call runs on the guards' bounded executor; once the client has shown that it enforces the
 * limit as its own per-request timeout (the starter's hooks for Apache HttpClient, the JDK's
 * {@code HttpClient} and Reactor Netty do: {@link HttpComponentsAttemptTimeout},
 * {@link JdkAttemptTimeout}, {@link ReactorAttemptTimeout}), the calls run on their caller's
 * thread and cost no thread of their own. Use one interceptor per request factory: what it learns
 * is its client's.
 *
 * <p>The answer's body is read after the guard let the answer through, within the client's own
 * timeout; should reading it fail (a body that stalls, a connection that breaks), the failure
 * carries a {@link DependencyUnavailableException}, so the route answers with its fallback as for
 * a call that got no answer at all.
 */
public class GuardingInterceptor implements ClientHttpRequestInterceptor {

	/** How Spring Cloud's {@code BlockingLoadBalancerClient} says it found no instance. */
	private static final String NO_INSTANCE = "No instances available for ";

	private final DependencyGuards guards;

	private final String deadlineHeader;

	private final Clock clock;

	private final @Nullable String priorityHeader;

	private final AttemptPlacement placement;

	/**
	 * Create an interceptor.
	 * @param guards the guards to look calls up in
	 * @param deadlineHeader the header that passes the time left on
	 * @param clock the clock {@code Retry-After} dates are measured against
	 */
	public GuardingInterceptor(DependencyGuards guards, String deadlineHeader, Clock clock) {
		this(guards, deadlineHeader, clock, null);
	}

	/**
	 * Create an interceptor that also passes the priority of the request a call is made for.
	 * @param guards the guards to look calls up in
	 * @param deadlineHeader the header that passes the time left on
	 * @param clock the clock {@code Retry-After} dates are measured against
	 * @param priorityHeader the header that passes the request's priority on, or {@code null} to
	 * pass none
	 */
	public GuardingInterceptor(DependencyGuards guards, String deadlineHeader, Clock clock,
			@Nullable String priorityHeader) {
		this(guards, deadlineHeader, clock, priorityHeader, (dependency) -> {
		});
	}

	/**
	 * Create an interceptor that is told when its client turns out not to enforce the time limit
	 * of its calls itself: for a client whose request factory could not be seen when it got the
	 * guard.
	 * @param guards the guards to look calls up in
	 * @param deadlineHeader the header that passes the time left on
	 * @param clock the clock {@code Retry-After} dates are measured against
	 * @param priorityHeader the header that passes the request's priority on, or {@code null} to
	 * pass none
	 * @param unbounded told, once, the dependency of the first call whose attempt the client did
	 * not bound (it ran on the guards' executor)
	 */
	public GuardingInterceptor(DependencyGuards guards, String deadlineHeader, Clock clock,
			@Nullable String priorityHeader, Consumer<String> unbounded) {
		this.guards = guards;
		this.deadlineHeader = deadlineHeader;
		this.clock = clock;
		this.priorityHeader = priorityHeader;
		this.placement = AttemptPlacement.learning(unbounded);
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		DependencyGuard guard = this.guards.forUrl(request.getURI());
		if (guard == null) {
			if (SimulatedCalls.carried(request.getHeaders())) {
				SimulatedCalls.passOn(request.getHeaders(), null);
			}
			return execution.execute(request, body);
		}
		// Read on the caller's thread: the attempts may run on the guards' executor.
		RequestSimulation simulation = RequestSimulation.current();
		DependencyUnavailableException simulated = SimulatedCalls.refused(simulation, guard.dependency().name());
		if (simulated != null) {
			throw simulated;
		}
		SimulatedCalls.passOn(request.getHeaders(), simulation);
		String priorityHeader = this.priorityHeader;
		Integer priority = (priorityHeader != null) ? RequestPriority.current() : null;
		if (priorityHeader != null && priority != null) {
			request.getHeaders().set(priorityHeader, PassedPriority.header(priority));
		}
		long[] attemptEnd = new long[1];
		try {
			ClientHttpResponse response = guard.attempt(request.getMethod().name(), (Duration limit) -> {
				attemptEnd[0] = System.nanoTime() + limit.toNanos();
				request.getHeaders().set(this.deadlineHeader, Long.toString(Math.max(1, limit.toMillis())));
				try {
					return execution.execute(request, body);
				}
				catch (IllegalStateException ex) {
					throw foundNoInstance(ex) ? new IOException("no instance of the service: " + ex.getMessage(), ex)
							: ex;
				}
			}, this::judge, ClientHttpResponse::close, this.placement);
			return new GuardedAnswer(response, guard.dependency().name(), attemptEnd[0]);
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * Return whether a failure is Spring Cloud LoadBalancer's interceptor (after this one) finding
	 * no instance of the service a {@code @LoadBalanced} client called: the call could reach
	 * nothing, as a refused connection, so it fails as one (an I/O error) and the route that
	 * requires the service answers its fallback, not an error. The interceptor says so only by
	 * the message of an {@code IllegalStateException}.
	 */
	private static boolean foundNoInstance(IllegalStateException failure) {
		String message = failure.getMessage();
		return message != null && message.startsWith(NO_INSTANCE);
	}

	private CallOutcome judge(ClientHttpResponse response) {
		HttpStatusCode status;
		try {
			status = response.getStatusCode();
		}
		catch (IOException ex) {
			return CallOutcome.FAILURE;
		}
		return CallOutcome.ofHttpStatus(status.value(), response.getHeaders().getFirst("Retry-After"), this.clock);
	}

	/**
	 * A guarded call's answer whose body, read after the guard let the answer through, fails as
	 * the call would have: an I/O error while reading it (the client gave up on a body that
	 * stalled, the connection broke) carries a {@link DependencyUnavailableException}, so the
	 * route that required the dependency answers with its fallback rather than an error.
	 */
	private static final class GuardedAnswer implements ClientHttpResponse {

		private final ClientHttpResponse answer;

		private final String dependency;

		private final long attemptEnd;

		private @Nullable InputStream body;

		GuardedAnswer(ClientHttpResponse answer, String dependency, long attemptEnd) {
			this.answer = answer;
			this.dependency = dependency;
			this.attemptEnd = attemptEnd;
		}

		@Override
		public HttpStatusCode getStatusCode() throws IOException {
			return this.answer.getStatusCode();
		}

		@Override
		public String getStatusText() throws IOException {
			return this.answer.getStatusText();
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.answer.getHeaders();
		}

		@Override
		public InputStream getBody() throws IOException {
			InputStream body = this.body;
			if (body == null) {
				body = new FilterInputStream(this.answer.getBody()) {

					@Override
					public int read() throws IOException {
						try {
							return super.read();
						}
						catch (IOException | RuntimeException ex) {
							throw broken(ex);
						}
					}

					@Override
					public int read(byte[] bytes, int offset, int length) throws IOException {
						try {
							return super.read(bytes, offset, length);
						}
						catch (IOException | RuntimeException ex) {
							throw broken(ex);
						}
					}

				};
				this.body = body;
			}
			return body;
		}

		@Override
		public void close() {
			this.answer.close();
		}

		/**
		 * The failure of a read, as an {@code IOException}: a client may also throw its own
		 * unchecked exception from the stream (Reactor Netty's {@code ReadTimeoutException}).
		 */
		private IOException broken(Exception failure) {
			// The client gives up at the limit by closing the body or by an error of its own: a
			// failure past the limit is the limit's, whatever the client calls it.
			boolean timedOut = DependencyGuard.isTimeout(failure) || System.nanoTime() - this.attemptEnd >= 0;
			Reason reason = timedOut ? Reason.TIMEOUT : Reason.FAILED;
			String message = "the answer's body " + (timedOut ? "did not arrive within the time limit" : "broke off")
					+ ": " + failure.getMessage();
			return new IOException(message,
					new DependencyUnavailableException(this.dependency, reason, message, failure));
		}

	}

}

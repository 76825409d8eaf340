package dev.degradation.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

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
 * limit as its own per-request timeout (the starter's hook for Apache HttpClient does), the
 * calls run on their caller's thread and cost no thread of their own. Use one interceptor per
 * request factory: what it learns is its client's.
 */
public class GuardingInterceptor implements ClientHttpRequestInterceptor {

	private final DependencyGuards guards;

	private final String deadlineHeader;

	private final Clock clock;

	private final @Nullable String priorityHeader;

	private final DependencyGuard.AttemptPlacement placement = DependencyGuard.AttemptPlacement.learning();

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
		this.guards = guards;
		this.deadlineHeader = deadlineHeader;
		this.clock = clock;
		this.priorityHeader = priorityHeader;
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		DependencyGuard guard = this.guards.forUrl(request.getURI());
		if (guard == null) {
			return execution.execute(request, body);
		}
		// Read on the caller's thread: the attempts may run on the guards' executor.
		String priorityHeader = this.priorityHeader;
		Integer priority = (priorityHeader != null) ? RequestPriority.current() : null;
		if (priorityHeader != null && priority != null) {
			request.getHeaders().set(priorityHeader, PassedPriority.header(priority));
		}
		try {
			return guard.attempt(request.getMethod().name(), (Duration limit) -> {
				request.getHeaders().set(this.deadlineHeader, Long.toString(Math.max(1, limit.toMillis())));
				return execution.execute(request, body);
			}, this::judge, ClientHttpResponse::close, this.placement);
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
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

}

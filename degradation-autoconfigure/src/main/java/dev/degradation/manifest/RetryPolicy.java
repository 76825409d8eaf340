package dev.degradation.manifest;

import java.time.Duration;
import java.util.Set;

/**
 * When and how a failed call to one dependency is tried again ({@code retry:}): only for the
 * methods listed, with jittered exponential backoff or the server's {@code Retry-After} capped at
 * {@code maxRetryAfter}, and never past {@code budget}, the time all attempts and waits together
 * may take.
 *
 * @param maxAttempts attempts in all, the first one included; 1 never retries
 * ({@code max_attempts})
 * @param backoff the wait before the first retry, doubled for each further one, with jitter
 * ({@code backoff_ms})
 * @param maxRetryAfter the longest wait a server's {@code Retry-After} may ask for
 * ({@code max_retry_after_ms})
 * @param budget the most all attempts and the waits between them may take together
 * ({@code budget_ms})
 * @param methods the HTTP methods that are retried, in upper case ({@code methods})
 */
public record RetryPolicy(int maxAttempts, Duration backoff, Duration maxRetryAfter, Duration budget,
		Set<String> methods) {

	/** The idempotent methods, retried unless the manifest lists others. */
	public static final Set<String> IDEMPOTENT_METHODS = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");

	/**
	 * Create a policy.
	 * @param maxAttempts attempts in all
	 * @param backoff the first wait
	 * @param maxRetryAfter the cap on {@code Retry-After}
	 * @param budget the time all attempts and waits may take
	 * @param methods the methods that are retried
	 */
	public RetryPolicy {
		methods = Set.copyOf(methods);
	}

	/**
	 * Return the policy that applies where nothing is written, for a dependency whose calls may
	 * take {@code callTimeout}: 3 attempts of the idempotent methods, 100 ms backoff, a
	 * {@code Retry-After} capped at 1 s, and all of it within one call timeout, so that no answer
	 * waits longer than the dependency's declared timeout.
	 * @param callTimeout the time limit of one call
	 * @return the standard policy
	 */
	public static RetryPolicy standard(Duration callTimeout) {
		return new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1), callTimeout, IDEMPOTENT_METHODS);
	}

	/**
	 * Return whether calls with the given method may be retried.
	 * @param method the HTTP method, in any case
	 * @return whether it is listed
	 */
	public boolean retries(String method) {
		return this.maxAttempts > 1 && this.methods.contains(method.toUpperCase(java.util.Locale.ROOT));
	}

}

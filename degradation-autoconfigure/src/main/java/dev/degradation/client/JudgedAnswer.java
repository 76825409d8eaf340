package dev.degradation.client;

/**
 * An answer of a dependency with how its guard judged it, as every guarded call reports it to
 * the dependency's breaker (by {@code CircuitBreaker.onResult}, or through Resilience4j's breaker
 * operator): the breaker counts a judged failure as an error by its {@code recordResult}
 * predicate, and the answer still reaches the caller.
 *
 * @param <T> the type of the answer
 * @param answer the answer
 * @param outcome how it was judged
 */
public record JudgedAnswer<T>(T answer, CallOutcome outcome) {

	/**
	 * Whether a result a breaker saw is a judged answer that counts as a failure: the
	 * {@code recordResult} predicate of every dependency's breaker.
	 */
	static boolean isFailure(Object result) {
		return result instanceof JudgedAnswer<?> judged && judged.outcome().failure();
	}

}

package dev.degradation.client;

/**
 * An answer of a dependency with how its guard judged it, as a guarded call emits it through
 * Resilience4j's breaker operator: the dependency's breaker counts a judged failure as an error
 * by its {@code recordResult} predicate, and the answer still reaches the caller.
 *
 * @param <T> the type of the answer
 * @param answer the answer
 * @param outcome how it was judged
 */
record JudgedAnswer<T>(T answer, CallOutcome outcome) {

	/**
	 * Whether a result a breaker saw is a judged answer that counts as a failure: the
	 * {@code recordResult} predicate of every dependency's breaker.
	 */
	static boolean isFailure(Object result) {
		return result instanceof JudgedAnswer<?> judged && judged.outcome().failure();
	}

}

package dev.degradation.web;

import java.util.List;

import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.FallbackKind;
import dev.degradation.manifest.Route;

/**
 * A kind of fallback whole: the manifest keys it reads and the fallback it builds from them
 * ({@link FallbackKind}), the writer of its answer, and what the contract tests expect of that
 * answer. The built-in kinds are four such types and an application's kind is one more: a bean of
 * this type, which the starter adds to the manifest's loader, the route table and the contract
 * tests ({@link FallbackKinds}), as Resilience4j's fallback decorators each say what they support
 * and do it. Nothing else knows a kind by name or by class.
 *
 * <p>The writer is made once per route when the route table is compiled, so that everything it
 * sends is prepared before the first request; its expectation is read from the fallback as
 * declared, never from the writer, so that a writer that answers wrong fails the contract tests.
 *
 * @param <F> the fallback it builds
 */
public interface ServedFallbackKind<F extends Fallback> extends FallbackKind<F> {

	/**
	 * Return the writer of a route's fallback answer.
	 * @param route the route
	 * @param fallback its fallback, as this kind built it
	 * @param staleAnswers where a kind that replays answers keeps its copies
	 * @return the writer
	 */
	FallbackWriter writer(Route route, F fallback, StaleAnswers staleAnswers);

	/**
	 * Return how an answer of a route differs from what its fallback declares, beyond what every
	 * fallback answer has (the markers of a degraded answer and {@link Fallback#answerStatus()},
	 * which the contract tests check themselves): its body, content type and headers.
	 * @param route the route
	 * @param fallback its fallback
	 * @param answer the answer a client received, to a request that is not {@code HEAD}
	 * @return each difference, worded as {@code its body is ... instead of ...}; empty when the
	 * answer is as declared
	 */
	List<String> differences(Route route, F fallback, ServedAnswer answer);

	/**
	 * Return what an answer of this fallback holds beyond its status and markers, for the
	 * expected value of a failed contract test, such as {@code , Content-Type: text/plain, body
	 * closed}.
	 * @param fallback the fallback
	 * @param method the request's method ({@code HEAD} gets no body)
	 * @return the description, starting with {@code ", "}, or empty
	 */
	default String expected(F fallback, String method) {
		return "";
	}

	/**
	 * Return what a shed request of a route gets, as the contract tests name the test, such as
	 * {@code answers its static fallback}.
	 * @param fallback the fallback
	 * @return the promise
	 */
	default String promise(F fallback) {
		return "answers its " + name() + " fallback";
	}

}

package dev.degradation.test.contract;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.opentest4j.AssertionFailedError;

import dev.degradation.engine.SimulationSignal;
import dev.degradation.manifest.Route;
import dev.degradation.web.DegradationHeaders;
import dev.degradation.web.FallbackKinds;

/**
 * The judgements of the contract tests. Each failure says what was promised, by which route
 * declared where, what came instead and what usually causes it; its expected and actual values
 * are the whole answers, for an IDE's comparison.
 */
final class ContractAssertions {

	private static final String CACHE_CONTROL = "Cache-Control";

	private ContractAssertions() {
	}

	/**
	 * Assert that a request was answered by its route's fallback of a built-in kind, marked as
	 * degraded.
	 * @param declared the route
	 * @param level the simulated level, which sheds the route's tier
	 * @param request the request
	 * @param answer the answer
	 */
	static void fallback(DeclaredRoute declared, int level, ContractRequest request, ContractAnswer answer) {
		fallback(FallbackKinds.builtIn(), declared, level, request, answer);
	}

	/**
	 * Assert that a request was answered by its route's fallback, marked as degraded, and as its
	 * kind declares it.
	 * @param kinds the application's fallback kinds, which judge the answers of their routes
	 * @param declared the route
	 * @param level the simulated level, which sheds the route's tier
	 * @param request the request
	 * @param answer the answer
	 */
	static void fallback(FallbackKinds kinds, DeclaredRoute declared, int level, ContractRequest request,
			ContractAnswer answer) {
		Route route = declared.route();
		String promise = request + " at level " + level + " should be answered by the " + route.fallback().kind()
				+ " fallback of " + declared.describe();
		String expected = expectedFallback(kinds, route, level, request);
		String handler = answer.handler();
		if (handler != null) {
			fail(promise + ", but it reached the handler " + handler + ": the degradation filter let it through "
					+ "(is 'degradationFilter' applied to this request? with MockMvc, are filters added?)", expected,
					answer);
		}
		if (!answer.degraded()) {
			fail(promise + ", but the answer is not degraded (no '" + DegradationHeaders.DEGRADED + ": true'): "
					+ "something answered before the degradation filter could, such as a filter ordered before it "
					+ "or a servlet that serves this path", expected, answer);
		}
		List<String> differences = new ArrayList<>();
		expectedHeaders(route, level).forEach((name, value) -> {
			String actual = answer.header(name);
			if (!value.equals(actual)) {
				differences.add("its " + name + " header is " + ((actual != null) ? "'" + actual + "'" : "missing")
						+ " instead of '" + value + "'");
			}
		});
		int status = route.fallback().answerStatus();
		if (status > 0 && answer.status() != status) {
			differences.add("its status is " + answer.status() + " instead of " + status);
		}
		if (!request.method().equals("HEAD")) {
			differences.addAll(kinds.differences(route, answer));
		}
		if (!differences.isEmpty()) {
			fail(promise + ", but " + String.join("; ", differences), expected, answer);
		}
	}

	/**
	 * Assert that a request reached a handler of the application, not degraded.
	 * @param promise what should have happened, for the failure message
	 * @param expectedHandler the handler that Spring MVC sends the request to
	 * @param answer the answer
	 * @param whyDegraded what explains a degraded answer, appended to its failure message, or an
	 * empty string
	 */
	static void reached(String promise, String expectedHandler, ContractAnswer answer, String whyDegraded) {
		String expected = "not degraded, reaching " + expectedHandler;
		if (answer.degraded()) {
			fail(promise + ", but it was answered by the fallback of tier '" + answer.header(DegradationHeaders.TIER)
					+ "' (" + DegradationHeaders.REASON + ": " + answer.header(DegradationHeaders.REASON) + ")"
					+ whyDegraded, expected, answer);
		}
		String handler = answer.handler();
		if (handler == null) {
			fail(promise + ", but it did not reach the handler " + expectedHandler + ": something answered before "
					+ "the handler could (a filter, a servlet that serves this path, or an interceptor of the "
					+ "application)", expected, answer);
		}
		if (!handler.equals(expectedHandler)) {
			fail(promise + ", but it reached " + handler + " instead of " + expectedHandler, expected, answer);
		}
	}

	private static Map<String, String> expectedHeaders(Route route, int level) {
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put(DegradationHeaders.DEGRADED, "true");
		headers.put(DegradationHeaders.TIER, route.tier());
		headers.put(DegradationHeaders.LEVEL, Integer.toString(level));
		headers.put(DegradationHeaders.REASON, SimulationSignal.NAME);
		headers.put(CACHE_CONTROL, "no-store");
		return headers;
	}

	private static String expectedFallback(FallbackKinds kinds, Route route, int level, ContractRequest request) {
		StringBuilder description = new StringBuilder();
		int status = route.fallback().answerStatus();
		description.append((status > 0) ? Integer.toString(status) : "its status");
		expectedHeaders(route, level)
			.forEach((name, value) -> description.append(", ").append(name).append(": ").append(value));
		description.append(kinds.expected(route, request.method()));
		return description.toString();
	}

	private static void fail(String message, String expected, ContractAnswer answer) {
		throw new AssertionFailedError(message + "\n  expected: " + expected + "\n  answer:   " + answer.describe(),
				expected, answer.describe());
	}

}

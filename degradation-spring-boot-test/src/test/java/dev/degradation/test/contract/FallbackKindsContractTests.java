package dev.degradation.test.contract;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.Route;
import dev.degradation.test.OnlyInTestKit;
import dev.degradation.test.TestKit;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The contract checks the answer of every kind of fallback as the manifest declares it, not only
 * {@code drop} and {@code static}: an {@code unavailable} route's {@code Retry-After} and problem
 * body, a {@code stale} route's answer without a copy (its {@code static_response}) and the age of
 * a copy it serves, a {@code static} route's headers, a {@code drop} route's empty body.
 */
class FallbackKindsContractTests {

	private static final DegradationManifest MANIFEST = ManifestLoader.standard()
		.load("kinds.yaml", """
				tiers:
				  best-effort:
				    priority: 1
				    routes:
				      - { path: /a, method: GET, fallback: unavailable, retry_after_seconds: 42 }
				      - { path: /b, method: GET, fallback: stale, max_stale_seconds: 60, static_response: { "b": [] } }
				      - { path: /c, method: POST, fallback: drop }
				      - { path: /d, method: GET, fallback: static, static_response: { "d": [] }, headers: { Retry-After: "9" } }
				""".getBytes(StandardCharsets.UTF_8));

	/** The problem detail that the {@code unavailable} route at {@code /a} answers. */
	private static final String PROBLEM = "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
			+ "\"detail\":\"GET /a is degraded and has no reduced answer; retry after 42 s\",\"degraded\":true,"
			+ "\"tier\":\"best-effort\",\"route\":\"GET /a\",\"retryAfterSeconds\":42}";

	@Test
	void everyKindOfTheShopPassesAgainstTheRunningServer() {
		Events events = TestKit.run(KindsContract.class);
		assertThat(TestKit.failures(events)).isEmpty();
		assertThat(TestKit.names(events)).contains(
				"GET /api/products/{id} (best-effort) > GET /api/products/{id} at level 1: answers its unavailable "
						+ "fallback",
				"GET /api/products (best-effort) > GET /api/products at level 1: answers its stale fallback");
	}

	@Test
	void anUnavailableAnswerWithAnotherRetryAfterOrBodyFails() {
		ContractAnswer wrong = answer(503, Map.of("Retry-After", "5", "Content-Type", "application/json"), "{}");
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> ContractAssertions.fallback(route(0), 1, request("/a"), wrong))
			.withMessageContaining("its Retry-After is '5' instead of the manifest's retry_after_seconds 42")
			.withMessageContaining("its content type is 'application/json' instead of application/problem+json")
			.withMessageContaining("its body is {} instead of a problem detail with status 503, degraded true, "
					+ "tier 'best-effort', route 'GET /a' and retryAfterSeconds 42")
			.withMessageContaining("expected: 503, X-Degraded: true")
			.withMessageContaining("Retry-After: 42, Content-Type: application/problem+json");
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> ContractAssertions.fallback(route(0), 1, request("/a"),
					answer(503, Map.of("Retry-After", "42", "Content-Type", "application/problem+json"),
							PROBLEM.replace("\"tier\":\"best-effort\"", "\"tier\":\"core\""))))
			.withMessageContaining("its body is");
		ContractAssertions.fallback(route(0), 1, request("/a"),
				answer(503, Map.of("Retry-After", "42", "Content-Type", "application/problem+json"), PROBLEM));
	}

	@Test
	void aDropAnswerWithABodyFails() {
		ContractRequest post = new ContractRequest("POST", "/c", Map.of(), "{}");
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> ContractAssertions.fallback(route(2), 1, post, answer(204, Map.of(), "oops")))
			.withMessageContaining("it has a body where the manifest's drop fallback has none");
		ContractAssertions.fallback(route(2), 1, post, answer(204, Map.of(), ""));
	}

	@Test
	void aStaticAnswerWithoutItsDeclaredHeaderFails() {
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> ContractAssertions.fallback(route(3), 1, request("/d"),
					answer(200, Map.of("Content-Type", "application/json"), "{\"d\": []}")))
			.withMessageContaining("its Retry-After header is missing instead of the manifest's '9'");
		ContractAssertions.fallback(route(3), 1, request("/d"),
				answer(200, Map.of("Content-Type", "application/json", "Retry-After", "9"), "{\"d\": []}"));
	}

	@Test
	void aStaleAnswerWithoutACopyIsItsStaticResponseAndACopyIsNoOlderThanDeclared() {
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> ContractAssertions.fallback(route(1), 1, request("/b"),
					answer(200, Map.of("Content-Type", "application/json"), "{\"b\": [\"live\"]}")))
			.withMessageContaining("instead of the manifest's static_response");
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> ContractAssertions.fallback(route(1), 1, request("/b"),
					answer(200, Map.of("Content-Type", "application/json", "Age", "61"), "{\"b\": [\"copy\"]}")))
			.withMessageContaining("its copy's Age is '61', past the manifest's max_stale_seconds 60");
		ContractAssertions.fallback(route(1), 1, request("/b"),
				answer(200, Map.of("Content-Type", "application/json", "Age", "60"), "{\"b\": [\"copy\"]}"));
		ContractAssertions.fallback(route(1), 1, request("/b"),
				answer(200, Map.of("Content-Type", "application/json"), "{\"b\": []}"));
	}

	private static DeclaredRoute route(int index) {
		Route route = MANIFEST.routes().get(index);
		return new DeclaredRoute(route, index, 1, "tiers.best-effort.routes[" + index + "]", "kinds.yaml");
	}

	private static ContractRequest request(String path) {
		return new ContractRequest("GET", path, Map.of(), null);
	}

	private static ContractAnswer answer(int status, Map<String, String> headers, String body) {
		Map<String, List<String>> all = new java.util.LinkedHashMap<>(Map.of("X-Degraded", List.of("true"),
				"X-Degradation-Tier", List.of("best-effort"), "X-Degradation-Level", List.of("1"),
				"X-Degradation-Reason", List.of("simulation"), "Cache-Control", List.of("no-store")));
		headers.forEach((name, value) -> all.put(name, List.of(value)));
		return new ContractAnswer(status, all, body);
	}

	@OnlyInTestKit
	@SpringBootTest(classes = ShopApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = "degradation.manifest=classpath:contract/kinds.yaml")
	static class KindsContract extends DegradationContractTests {

	}

}

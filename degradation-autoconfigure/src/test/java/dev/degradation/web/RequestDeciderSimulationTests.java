package dev.degradation.web;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.http.server.PathContainer;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request decision for a request that asks for its own simulation, without a server: it is
 * answered as the simulation says, marked and counted apart, while the state stays as it is; with
 * the feature off or a wrong token the headers change nothing.
 */
class RequestDeciderSimulationTests {

	private static final String TOKEN = "a-token-of-at-least-16-characters";

	private static final String MANIFEST = """
			dependencies:
			  recommendations-api: { base_url: "http://127.0.0.1:9" }
			tiers:
			  enhanced:
			    priority: 1
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: stale, max_stale_seconds: 60, static_response: { "items": [] }, requires: [recommendations-api] }
			""";

	private final DegradationManifest manifest = ManifestLoader.standard()
		.load("simulation.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));

	private final DegradationEngine engine = new DegradationEngine(this.manifest,
			Clock.fixed(Instant.parse("2026-12-06T10:00:00Z"), ZoneOffset.UTC));

	private final RequestDecider decider = new RequestDecider(this.engine,
			RouteTable.compile(this.manifest, new StaleAnswers(StaleAnswers.Limits.DEFAULT, this.engine.clock())),
			"/actuator", null, "x-envoy-expected-rq-timeout-ms", Duration.ofSeconds(30));

	@Test
	void withoutTheFeatureTheHeadersChangeNothing() {
		Decision decision = this.decider
			.decide(get(Map.of(RequestSimulation.HEADER, "level=1", RequestSimulation.TOKEN_HEADER, TOKEN)));
		assertThat(decision).isInstanceOf(Decision.Proceed.class);
		assertThat(((Decision.Proceed) decision).simulation()).isNull();
	}

	@Test
	void aSimulatedRequestIsAnsweredWithItsFallbackMarkedAndCountedApart() {
		this.decider.setRequestSimulation(TOKEN);
		for (String simulation : new String[] { "level=1", "failed=recommendations-api" }) {
			Decision decision = this.decider
				.decide(get(Map.of(RequestSimulation.HEADER, simulation, RequestSimulation.TOKEN_HEADER, TOKEN)));
			assertThat(decision).isInstanceOf(Decision.Shed.class);
			Decision.Shed shed = (Decision.Shed) decision;
			assertThat(shed.cause()).isEqualTo(RequestSimulation.CAUSE);
			Answer answer = shed.answer(get(Map.of()));
			assertThat(answer.headers()).contains("X-Degradation-Reason", RequestSimulation.CAUSE);
		}
		assertThat(this.engine.fallbackCounts().requestSimulations(0)).isEqualTo(2);
		assertThat(this.engine.fallbackCounts().count(0, "simulation")).isZero();
		assertThat(this.engine.state().shedsAnything()).isFalse();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void aSimulatedRequestThatGoesOnKeepsNoStaleCopyAndItsRefusedCallIsMarkedAsSimulated() {
		this.decider.setRequestSimulation(TOKEN);
		Decision decision = this.decider.decide(
				get(Map.of(RequestSimulation.HEADER, "failed=elsewhere", RequestSimulation.TOKEN_HEADER, TOKEN)));
		assertThat(decision).isInstanceOf(Decision.Proceed.class);
		Decision.Proceed proceed = (Decision.Proceed) decision;
		assertThat(proceed.simulation()).isNotNull();
		assertThat(proceed.copies("GET")).as("a simulated answer is never a last good copy").isNull();
		Decision.Proceed live = (Decision.Proceed) this.decider.decide(get(Map.of()));
		assertThat(live.simulation()).isNull();
		assertThat(live.copies("GET")).isNotNull();
		Decision.Proceed simulatingTheDependency = new Decision.Proceed(proceed.state(), proceed.route(), null, -1,
				Decision.Proceed.NOT_PASSED, new RequestSimulation(0, java.util.Set.of("recommendations-api"),
						"failed=recommendations-api", TOKEN));
		assertThat(this.decider.afterRefusedCall(simulatingTheDependency, get(Map.of()), "recommendations-api").cause())
			.isEqualTo(RequestSimulation.CAUSE);
		assertThat(this.decider.afterRefusedCall(live, get(Map.of()), "recommendations-api").cause())
			.isEqualTo("dependency:recommendations-api");
	}

	@Test
	void aWrongTokenChangesNothing() {
		this.decider.setRequestSimulation(TOKEN);
		Decision decision = this.decider
			.decide(get(Map.of(RequestSimulation.HEADER, "level=1", RequestSimulation.TOKEN_HEADER, "wrong-token-wrong-token")));
		assertThat(decision).isInstanceOf(Decision.Proceed.class);
		assertThat(((Decision.Proceed) decision).simulation()).isNull();
	}

	private static RequestView get(Map<String, String> headers) {
		return new RequestView() {

			@Override
			public String method() {
				return "GET";
			}

			@Override
			public PathContainer pathWithinApplication() {
				return PathContainer.parsePath("/api/recommendations");
			}

			@Override
			public String rawPath() {
				return "/api/recommendations";
			}

			@Override
			public @Nullable String rawQuery() {
				return null;
			}

			@Override
			public @Nullable String header(String name) {
				return headers.entrySet()
					.stream()
					.filter((entry) -> entry.getKey().equalsIgnoreCase(name))
					.map(Map.Entry::getValue)
					.findFirst()
					.orElse(null);
			}

		};
	}

}

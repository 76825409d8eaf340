package dev.degradation.actuate;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.ShedDemand;
import dev.degradation.engine.ShedSignal;
import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.monitor.BreakerState;
import dev.degradation.web.HandlerRoute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What the endpoint shows of the manifest, without an application around it.
 */
class DegradationEndpointTests {

	@Test
	void aSignalAddsItsSectionsButNeverHidesAFieldOfTheAnswerOrAnEarlierSignalsSection() {
		String manifest = """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop }
				""";
		ShedSignal first = new SectionSignal("first", Map.of("level", "hidden?", "window", "first's"));
		ShedSignal second = new SectionSignal("second", Map.of("window", "second's", "crew", "night shift"));
		DegradationEndpoint endpoint = new DegradationEndpoint(new DegradationEngine(
				ManifestLoader.standard().load("m.yaml", manifest.getBytes(StandardCharsets.UTF_8)), Clock.systemUTC(),
				List.of(first, second), Runnable::run));
		DegradationEndpoint.DegradationDescriptor descriptor = endpoint.degradation();
		assertThat(descriptor.sections()).containsOnly(entry("window", "first's"), entry("crew", "night shift"));
		assertThat(descriptor.level()).isZero();
		assertThat(descriptor.signals().get("first").kind()).isEqualTo("maintenance");
	}

	@Test
	void healthUrlsAreShownWithoutCredentialsOrQuery() {
		String manifest = """
				dependencies:
				  catalog: { health_url: "https://probe:s3cret@catalog.internal:8443/healthz?api_key=k3y" }
				  search: { health_url: "http://search:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog, search] }
				""";
		DegradationEndpoint endpoint = new DegradationEndpoint(new DegradationEngine(
				ManifestLoader.standard().load("m.yaml", manifest.getBytes(StandardCharsets.UTF_8)), Clock.systemUTC()));
		DegradationEndpoint.DegradationDescriptor descriptor = endpoint.degradation();
		assertThat(descriptor.dependencies().get("catalog").healthUrl())
			.hasToString("https://catalog.internal:8443/healthz");
		assertThat(descriptor.dependencies().get("search").healthUrl()).hasToString("http://search:8080/healthz");
	}

	@Test
	void aBreakerIsShownAsWhatItIsWithWhatItsStateMeansForTheCalls() {
		String manifest = """
				dependencies:
				  catalog: { health_url: "http://catalog:8080/healthz" }
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
				""";
		TestClock clock = TestClock.at(Instant.parse("2026-12-01T10:00:00Z"));
		DegradationEngine engine = new DegradationEngine(
				ManifestLoader.standard().load("m.yaml", manifest.getBytes(StandardCharsets.UTF_8)), clock);
		DegradationEndpoint endpoint = new DegradationEndpoint(engine);
		assertThat(endpoint.degradation().dependencies().get("catalog").breakerNote()).isNull();
		engine.recordBreaker("catalog", BreakerState.OPEN);
		assertThat(endpoint.degradation().dependencies().get("catalog").breakerNote())
			.isEqualTo("open: calls are refused at once; it lets trial calls through from 2026-12-01T10:00:05Z "
					+ "(open_ms 5000)");
		clock.advance(Duration.ofSeconds(5));
		engine.recordBreaker("catalog", BreakerState.HALF_OPEN);
		DegradationEndpoint.DependencyDescriptor halfOpen = endpoint.degradation().dependencies().get("catalog");
		assertThat(halfOpen.breaker()).isEqualTo(BreakerState.HALF_OPEN);
		assertThat(halfOpen.breakerNote()).startsWith("half-open: the next 3 calls to it are trials")
			.contains("it stays half-open until the application calls it (probes do not count)");
	}

	@Test
	void routesCarryTheirNameFallbackStatusPositionAndWhetherAHandlerServesThem() {
		String manifest = """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { name: tracking, path: /api/track, method: POST, fallback: drop }
				      - { path: /vet.html, method: GET, fallback: static, static_response: "<p>resting</p>", status: 200 }
				      - { path: /api/reviews, method: GET, fallback: unavailable }
				""";
		DegradationEngine engine = new DegradationEngine(
				ManifestLoader.standard().load("m.yaml", manifest.getBytes(StandardCharsets.UTF_8)), Clock.systemUTC());
		List<HandlerRoute> handlers = List.of(new HandlerRoute(Set.of("POST"), "/api/track", "TrackController#track()"),
				new HandlerRoute(Set.of("GET"), "/vets.html", "VetController#vets()"),
				new HandlerRoute(Set.of("GET"), "/api/reviews", "ReviewController#reviews()"));
		DegradationEndpoint endpoint = new DegradationEndpoint(engine, Duration.ofDays(1), null, () -> handlers);
		DegradationEndpoint.DegradationDescriptor descriptor = endpoint.degradation();
		assertThat(descriptor.manifest()).isEqualTo("m.yaml");
		assertThat(descriptor.tiers().get(0).routes())
			.extracting(DegradationEndpoint.RouteDescriptor::name, DegradationEndpoint.RouteDescriptor::fallbackStatus,
					DegradationEndpoint.RouteDescriptor::position, DegradationEndpoint.RouteDescriptor::handled)
			.containsExactly(tuple("tracking", 204, "5:9", true), tuple(null, 200, "6:9", false),
					tuple(null, 503, "7:9", true));
		assertThat(new DegradationEndpoint(engine).degradation().tiers().get(0).routes())
			.extracting(DegradationEndpoint.RouteDescriptor::handled)
			.containsOnlyNulls();
	}

	private record SectionSignal(String name, Map<String, Object> section) implements ShedSignal {

		@Override
		public String kind() {
			return "maintenance";
		}

		@Override
		public ShedDemand demand(Instant now) {
			return ShedDemand.NONE;
		}

		@Override
		public Map<String, Object> sections(DegradationState state) {
			return this.section;
		}

	}

}

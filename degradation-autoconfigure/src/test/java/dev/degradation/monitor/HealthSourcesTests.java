package dev.degradation.monitor;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.degradation.manifest.CallBudget;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.HealthCheck;
import dev.degradation.manifest.Position;
import dev.degradation.testapp.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe made of health sources: the first source that supports a dependency probes it, a
 * dependency no source supports is a failed probe that says so, and aborting reaches every source.
 */
class HealthSourcesTests {

	private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

	private static final HealthCheck HEALTH_CHECK = new HealthCheck(Duration.ofSeconds(1), Duration.ofMillis(500),
			Duration.ofSeconds(10), 3, 0.4, 0.15);

	private final MutableClock clock = new MutableClock(START);

	private final Dependency catalog = new Dependency("catalog", URI.create("http://127.0.0.1:1/healthz"),
			HEALTH_CHECK, new Position(1, 1));

	private final Dependency payments = new Dependency("payments", null, HEALTH_CHECK, new Position(2, 1), null,
			URI.create("http://127.0.0.1:1/pay"), CallBudget.standard(Duration.ofSeconds(1)));

	private final List<String> aborted = new ArrayList<>();

	@Test
	void theFirstSourceThatSupportsADependencyProbesIt() {
		HealthSources sources = new HealthSources(List.of(source("catalog", "first"), source("catalog", "second"),
				DependencyHealthSource.healthUrl((dependency) -> result("by url"))), this.clock);
		assertThat(sources.probe(this.catalog).detail()).isEqualTo("first");
	}

	@Test
	void aSourceAddedForOneDependencyLeavesTheOthersToTheirs() {
		HealthSources sources = new HealthSources(
				List.of(source("payments", "by the application"), DependencyHealthSource.healthUrl((dependency) -> result("by url"))),
				this.clock);
		assertThat(sources.probe(this.payments).detail()).isEqualTo("by the application");
		assertThat(sources.probe(this.catalog).detail()).isEqualTo("by url");
	}

	@Test
	void aDependencyNoSourceSupportsIsAFailedProbeThatSaysSo() {
		HealthSources sources = new HealthSources(List.of(DependencyHealthSource.healthUrl((dependency) -> result("by url"))),
				this.clock);
		ProbeResult result = sources.probe(this.payments);
		assertThat(result.healthy()).isFalse();
		assertThat(result.outcome()).isEqualTo(ProbeResult.ERROR);
		assertThat(result.detail()).isEqualTo("no health source judges dependency 'payments'");
		assertThat(result.at()).isEqualTo(START);
	}

	@Test
	void aDependencyIsProbedWhenItDeclaresAJudgeOrWhenASourceClaimsIt() {
		HealthSources sources = new HealthSources(List.of(DependencyHealthSource.healthUrl((dependency) -> result("by url"))),
				this.clock);
		assertThat(sources.claims(this.catalog)).isTrue();
		assertThat(sources.claims(this.payments)).isFalse();
		HealthSources withCalls = new HealthSources(List.of(source("payments", "by the application")), this.clock);
		assertThat(withCalls.claims(this.payments)).isTrue();
	}

	@Test
	void abortingReachesEverySource() {
		HealthSources sources = new HealthSources(List.of(source("catalog", "first"), source("payments", "second")),
				this.clock);
		sources.abort(Thread.currentThread());
		sources.abortAll();
		assertThat(this.aborted).containsExactly("first", "second", "all first", "all second");
	}

	private DependencyHealthSource source(String name, String detail) {
		return new DependencyHealthSource() {

			@Override
			public boolean supports(Dependency dependency) {
				return dependency.name().equals(name);
			}

			@Override
			public ProbeResult probe(Dependency dependency) {
				return result(detail);
			}

			@Override
			public void abort(Thread prober) {
				HealthSourcesTests.this.aborted.add(detail);
			}

			@Override
			public void abortAll() {
				HealthSourcesTests.this.aborted.add("all " + detail);
			}

		};
	}

	private ProbeResult result(String detail) {
		return new ProbeResult(true, ProbeResult.OK, detail, this.clock.instant(), Duration.ZERO);
	}

}

package dev.degradation.actuate;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.PressureSignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.VerificationMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sampling of the pressure rules' meters holds a thread only when the manifest has a rule: a
 * manifest without one starts none, and a reload that brings the first rule starts the sampling,
 * which then sheds on a real Micrometer registry.
 */
class PressureSamplingTests {

	private static final String WITHOUT_RULES = """
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /recommendations, method: GET, fallback: drop }
			""";

	private static final String WITH_A_RULE = WITHOUT_RULES + """
			pressure:
			  - { meter: test.queue.pending, shed_above: 5, restore_below: 1, sheds: best-effort }
			""";

	private final DegradationManifest manifest = manifest(WITHOUT_RULES);

	private final PressureSignal pressure = new PressureSignal(this.manifest, Instant.now());

	private final DegradationEngine engine = new DegradationEngine(this.manifest, Clock.systemUTC(),
			List.of(this.pressure), Runnable::run);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final PressureSampling sampling = new PressureSampling(
			new PressureSampler(this.pressure, this.engine, this.registry, VerificationMode.STRICT),
			Duration.ofMillis(10));

	private final Set<String> threadsBefore = pressureThreads();

	PressureSamplingTests() {
		this.engine.addListener(this.sampling);
		Gauge.builder("test.queue.pending", new AtomicReference<>(10.0), AtomicReference::get).register(this.registry);
	}

	@AfterEach
	void stop() {
		this.sampling.stop();
	}

	@Test
	void aManifestWithoutRulesStartsNoThread() {
		this.sampling.start();
		assertThat(this.sampling.isRunning()).isTrue();
		assertThat(pressureThreads()).isEqualTo(this.threadsBefore);
		this.sampling.stop();
		assertThat(this.sampling.isRunning()).isFalse();
	}

	@Test
	void aReloadThatBringsTheFirstRuleStartsTheSampling() {
		this.sampling.start();
		this.engine.replace(manifest(WITH_A_RULE));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engine.state().level() == 1);
		assertThat(this.engine.state().shedCause(0)).isEqualTo("pressure:test.queue.pending");
		assertThat(pressureThreads()).hasSize(this.threadsBefore.size() + 1);
	}

	@Test
	void aReloadWhileStoppedStartsNothing() {
		this.engine.replace(manifest(WITH_A_RULE));
		assertThat(this.sampling.isRunning()).isFalse();
		assertThat(pressureThreads()).isEqualTo(this.threadsBefore);
	}

	private static Set<String> pressureThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("degradation-pressure-"))
			.collect(Collectors.toSet());
	}

	private static DegradationManifest manifest(String yaml) {
		return ManifestLoader.standard().load("manifest.yaml", yaml.getBytes(StandardCharsets.UTF_8));
	}

}

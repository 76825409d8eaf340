package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How the signals' demands combine into a state, without an engine around them.
 */
class SignalCombinerTests {

	private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

	private final DegradationManifest manifest = ManifestLoader.standard().load("m.yaml", """
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/reviews, method: GET, fallback: drop }
			  enhanced:
			    priority: 2
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: drop }
			""".getBytes(StandardCharsets.UTF_8));

	private final SimulationSignal simulation = new SimulationSignal(this.manifest.maxPriority());

	private final FixedSignal load = new FixedSignal("load", "overload");

	private final FixedSignal maintenance = new FixedSignal("maintenance", "maintenance");

	private final SignalCombiner combiner = new SignalCombiner(List.of(this.simulation, this.load, this.maintenance),
			this.simulation);

	private final ManifestLayout layout = new ManifestLayout(this.manifest, this.combiner.kinds());

	private final DegradationState started = new DegradationState(0, 0, Simulation.OFF, List.of(), NOW, "started",
			Map.of(), new String[2], new String[2], false, this.manifest, this.layout.fallbackCounts);

	@Test
	void theHighestLevelShedsItsTiersAndARouteDemandShedsOnlyThatRouteUnderItsSignalsKind() {
		this.load.demand = ShedDemand.level(1, "overload:saturated", "admission saturated");
		this.maintenance.demand = ShedDemand.routes(Map.of(1, "maintenance:window"), "night work");
		DegradationState next = this.combiner.next(this.started, this.layout, NOW);
		assertThat(next.level()).isEqualTo(1);
		assertThat(next.reason()).isEqualTo("admission saturated");
		assertThat(next.shedTiers()).containsExactly("optional");
		assertThat(next.shedCause(0)).isEqualTo("overload:saturated");
		assertThat(next.shedCause(1)).isEqualTo("maintenance:window");
		assertThat(next.changedAt()).isEqualTo(NOW);
	}

	@Test
	void theSameDemandsGiveBackThePreviousStateItself() {
		this.load.demand = ShedDemand.level(2, "overload:saturated", "admission saturated");
		DegradationState next = this.combiner.next(this.started, this.layout, NOW);
		assertThat(this.combiner.next(next, this.layout, NOW.plusSeconds(5))).isSameAs(next);
		assertThat(this.combiner.next(this.started, this.layout, NOW)).isNotSameAs(this.started);
	}

	@Test
	void simulationSetsTheLevelExactlyWhateverTheOthersDemand() {
		this.load.demand = ShedDemand.level(2, "overload:saturated", "admission saturated");
		this.simulation.simulate(1, null, "ci", NOW);
		DegradationState next = this.combiner.next(this.started, this.layout, NOW);
		assertThat(next.level()).isEqualTo(1);
		assertThat(next.computedLevel()).isEqualTo(2);
		assertThat(next.simulation().enabled()).isTrue();
	}

	@Test
	void twoSignalsOfOneNameOrAMalformedKindAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SignalCombiner(List.of(this.load, new FixedSignal("load", "other")), this.simulation))
			.withMessage("Two shed signals are named 'load'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SignalCombiner(List.of(new FixedSignal("odd", "Not A Kind")), this.simulation))
			.withMessageContaining("but was 'Not A Kind'");
	}

	private static final class FixedSignal implements ShedSignal {

		private final String name;

		private final String kind;

		volatile ShedDemand demand = ShedDemand.NONE;

		FixedSignal(String name, String kind) {
			this.name = name;
			this.kind = kind;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public String kind() {
			return this.kind;
		}

		@Override
		public ShedDemand demand(Instant now) {
			return this.demand;
		}

	}

}

package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Operators' switches as a shed signal: configured and overridden, with a time to live that ends
 * by itself, never a misspelt name taken silently.
 */
class SwitchSignalTests {

	private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

	/** Routes by index: 0 POST /track, 1 GET /assign, 2 GET /recommendations. */
	private static final String MANIFEST = """
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /track, method: POST, fallback: drop }
			      - { path: /assign, method: GET, fallback: drop }
			  enhanced:
			    priority: 2
			    routes:
			      - { name: recommendations, path: /recommendations, method: GET, fallback: drop }
			""";

	private final TestClock clock = TestClock.at(START);

	private final DegradationManifest manifest = ManifestLoader.standard()
		.load("test.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));

	private final SwitchSignal switches = new SwitchSignal(this.manifest);

	private final DegradationEngine engine = new DegradationEngine(this.manifest, this.clock, List.of(this.switches),
			Runnable::run);

	@Test
	void aConfiguredOffTierIsShedWhateverTheLevel() {
		this.switches.configure(Map.of("best-effort", SwitchState.OFF));
		DegradationState state = this.engine.evaluate();
		assertThat(state.level()).isZero();
		assertThat(causes(state)).containsExactly("switch:best-effort", "switch:best-effort", null);
		assertThat(state.shedKind(0)).isEqualTo(SwitchSignal.KIND);
		assertThat(state.demands().get(SwitchSignal.NAME).reason()).isEqualTo("switched off: best-effort (configured)");
		this.switches.configure(Map.of("best-effort", SwitchState.ON));
		assertThat(this.engine.evaluate().shedsAnything()).isFalse();
	}

	@Test
	void aNamedRouteIsSwitchedAlone() {
		assertThat(this.switches.names()).containsExactly("best-effort", "enhanced", "recommendations");
		this.switches.configure(Map.of("recommendations", SwitchState.OFF));
		assertThat(causes(this.engine.evaluate())).containsExactly(null, null, "switch:recommendations");
	}

	@Test
	void anOverrideWinsOverTheConfigurationUntilRemoved() {
		this.switches.configure(Map.of("best-effort", SwitchState.OFF));
		this.switches.override("best-effort", SwitchState.ON, null, "alice", START);
		this.switches.override("enhanced", SwitchState.OFF, null, "alice", START);
		assertThat(causes(this.engine.evaluate())).containsExactly(null, null, "switch:enhanced");
		assertThat(this.switches.removeOverride("best-effort")).isNotNull();
		assertThat(causes(this.engine.evaluate())).containsExactly("switch:best-effort", "switch:best-effort",
				"switch:enhanced");
	}

	@Test
	void anOverrideWithATimeToLiveEndsByItself() {
		this.switches.override("enhanced", SwitchState.OFF, Duration.ofMinutes(15), "bob", START);
		assertThat(this.switches.overrides()).singleElement()
			.isEqualTo(new SwitchOverride("enhanced", SwitchState.OFF, "bob", START, START.plus(Duration.ofMinutes(15))));
		this.clock.advanceTo(START.plus(Duration.ofMinutes(15)).minusMillis(1));
		assertThat(causes(this.engine.evaluate())).containsExactly(null, null, "switch:enhanced");
		this.clock.advanceTo(START.plus(Duration.ofMinutes(15)));
		assertThat(this.engine.evaluate().shedsAnything()).isFalse();
		assertThat(this.switches.overrides()).isEmpty();
		assertThat(this.switches.state("enhanced")).isEqualTo(SwitchState.ON);
	}

	@Test
	void anUnknownNameIsRefusedWithTheKnownOnesAndChangesNothing() {
		this.switches.configure(Map.of("enhanced", SwitchState.OFF));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.switches.configure(Map.of("best-efort", SwitchState.OFF, "enhanced", SwitchState.ON)))
			.withMessage("No tier or named route called 'best-efort'; the switches are: best-effort, enhanced, "
					+ "recommendations");
		assertThat(this.switches.configured()).isEqualTo(Map.of("enhanced", SwitchState.OFF));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.switches.override("enhansed", SwitchState.OFF, null, "alice", START));
		assertThat(this.switches.overrides()).isEmpty();
	}

	@Test
	void resetRemovesTheOverridesAndKeepsTheConfiguration() {
		this.switches.configure(Map.of("enhanced", SwitchState.OFF));
		this.switches.override("best-effort", SwitchState.OFF, null, "alice", START);
		DegradationState state = this.engine.reset();
		assertThat(this.switches.overrides()).isEmpty();
		assertThat(causes(state)).containsExactly(null, null, "switch:enhanced");
	}

	@Test
	void simulationWithATimeToLiveEndsByItself() {
		this.engine.simulate(2, Duration.ofSeconds(30), "ci");
		assertThat(this.engine.simulation().override())
			.isEqualTo(new SimulationSignal.SimulationOverride(2, "ci", START, START.plusSeconds(30)));
		this.clock.advanceTo(START.plusSeconds(29));
		assertThat(this.engine.evaluate().level()).isEqualTo(2);
		this.clock.advanceTo(START.plusSeconds(30));
		DegradationState state = this.engine.evaluate();
		assertThat(state.level()).isZero();
		assertThat(state.simulation().enabled()).isFalse();
		assertThat(this.engine.simulation().override()).isNull();
	}

	@Test
	void aNewManifestKeepsTheSwitchesThatStillNameSomethingAndEndsASimulationBeyondIt() {
		this.switches.configure(Map.of("enhanced", SwitchState.OFF, "recommendations", SwitchState.OFF));
		this.switches.override("best-effort", SwitchState.OFF, null, "alice", START);
		this.engine.simulate(2);
		DegradationManifest next = ManifestLoader.standard().load("next.yaml", """
				tiers:
				  enhanced:
				    priority: 1
				    routes:
				      - { path: /recommendations, method: GET, fallback: drop }
				      - { path: /reviews, method: GET, fallback: drop }
				""".getBytes(StandardCharsets.UTF_8));
		DegradationState state = this.engine.replace(next);
		assertThat(state.manifest()).isSameAs(next);
		assertThat(state.simulation().enabled()).as("level 2 is beyond the new manifest").isFalse();
		assertThat(this.switches.configured()).isEqualTo(Map.of("enhanced", SwitchState.OFF));
		assertThat(this.switches.overrides()).isEmpty();
		assertThat(state.shedCause(0)).isEqualTo("switch:enhanced");
		assertThat(state.shedCause(1)).isEqualTo("switch:enhanced");
		assertThat(this.engine.fallbackCounts().count(1)).isZero();
	}

	private static List<String> causes(DegradationState state) {
		List<String> causes = new ArrayList<>();
		for (int route = 0; route < 3; route++) {
			causes.add(state.shedCause(route));
		}
		return causes;
	}

}

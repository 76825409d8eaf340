package dev.degradation.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.manifest.Route;
import dev.degradation.monitor.DependencyStatus;

/**
 * Reports the degradation state in health details while keeping the application {@code UP}: a
 * degraded service is serving reduced answers on purpose, and restarting it (liveness) or taking
 * it out of the load balancer (readiness) would turn a partial outage into a full one.
 */
public class DegradationHealthIndicator implements HealthIndicator {

	private final DegradationEngine engine;

	/**
	 * Create an indicator.
	 * @param engine the engine to report
	 */
	public DegradationHealthIndicator(DegradationEngine engine) {
		this.engine = engine;
	}

	private List<String> shedRoutes(DegradationState state) {
		List<String> shed = new ArrayList<>();
		List<Route> routes = this.engine.manifest().routes();
		for (int index = 0; index < routes.size(); index++) {
			String cause = state.shedCause(index);
			if (cause != null) {
				shed.add(routes.get(index) + " (" + cause + ")");
			}
		}
		return shed;
	}

	@Override
	public Health health() {
		DegradationState state = this.engine.state();
		Map<String, String> dependencies = new LinkedHashMap<>();
		for (DependencyStatus status : this.engine.dependencies()) {
			dependencies.put(status.name(), status.state().name() + (status.forced() ? " (forced)" : ""));
		}
		return Health.up()
			.withDetail("level", state.level())
			.withDetail("degraded", state.shedsAnything())
			.withDetail("shedTiers", state.shedTiers())
			.withDetail("shedRoutes", shedRoutes(state))
			.withDetail("simulation", state.simulation().enabled())
			.withDetail("reason", state.reason())
			.withDetail("dependencies", dependencies)
			.build();
	}

}

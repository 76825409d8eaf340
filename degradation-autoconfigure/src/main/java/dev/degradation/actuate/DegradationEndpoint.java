package dev.degradation.actuate;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.Simulation;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;

/**
 * The {@code degradation} Actuator endpoint: reads the active shed level and what it sheds, and
 * switches simulation so that CI can exercise the degraded paths. Writing is off by default
 * ({@link Access#READ_ONLY}); it takes {@code management.endpoint.degradation.access=unrestricted}
 * and should then be secured, since it can shed the service's features.
 */
@Endpoint(id = "degradation", defaultAccess = Access.READ_ONLY)
public class DegradationEndpoint {

	private final DegradationEngine engine;

	/**
	 * Create an endpoint.
	 * @param engine the engine to show and control
	 */
	public DegradationEndpoint(DegradationEngine engine) {
		this.engine = engine;
	}

	/**
	 * Describe the active shed level, the simulation, and every tier with its routes.
	 * @return the description
	 */
	@ReadOperation
	public DegradationDescriptor degradation() {
		return describe(this.engine.state());
	}

	/**
	 * Switch simulation on at a level, or off.
	 * @param enabled whether simulation is on
	 * @param level the level to simulate; required when {@code enabled} is true
	 * @return the description after the change
	 */
	@WriteOperation
	public DegradationDescriptor simulate(boolean enabled, @Nullable Integer level) {
		if (!enabled) {
			return describe(this.engine.stopSimulation());
		}
		if (level == null) {
			throw new InvalidEndpointRequestException("'level' is required when 'enabled' is true",
					"'level' is required when 'enabled' is true");
		}
		try {
			return describe(this.engine.simulate(level));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), ex.getMessage());
		}
	}

	private DegradationDescriptor describe(DegradationState state) {
		DegradationManifest manifest = this.engine.manifest();
		List<TierDescriptor> tiers = new ArrayList<>();
		int index = 0;
		for (Tier tier : manifest.tiers()) {
			List<RouteDescriptor> routes = new ArrayList<>();
			for (Route route : tier.routes()) {
				routes.add(new RouteDescriptor(route.method(), route.path(), route.fallback().kind(), route.requires(),
						this.engine.fallbackCounts().count(index++)));
			}
			tiers.add(new TierDescriptor(tier.name(), tier.priority(), state.sheds(tier.priority()), routes));
		}
		List<DependencyDescriptor> dependencies = manifest.dependencies()
			.stream()
			.map((dependency) -> new DependencyDescriptor(dependency.name(), dependency.healthUrl(),
					dependency.timeout().toMillis()))
			.toList();
		return new DegradationDescriptor(state.level(), state.computedLevel(), state.simulation(), state.shedTiers(),
				state.changedAt(), state.reason(), tiers, dependencies);
	}

	/**
	 * The endpoint's answer.
	 *
	 * @param level the active shed level
	 * @param computedLevel the level that applies when simulation is off
	 * @param simulation the simulation setting
	 * @param shedTiers the names of the shed tiers, in shed order
	 * @param changedAt when the active level last changed
	 * @param reason why the active level is what it is
	 * @param tiers every tier, in shed order
	 * @param dependencies every declared dependency
	 */
	public record DegradationDescriptor(int level, int computedLevel, Simulation simulation, List<String> shedTiers,
			Instant changedAt, String reason, List<TierDescriptor> tiers, List<DependencyDescriptor> dependencies) {

	}

	/**
	 * A tier as shown by the endpoint.
	 *
	 * @param name the tier name
	 * @param priority the shed order
	 * @param shed whether the tier is shed now
	 * @param routes the tier's routes
	 */
	public record TierDescriptor(String name, int priority, boolean shed, List<RouteDescriptor> routes) {

	}

	/**
	 * A route as shown by the endpoint.
	 *
	 * @param method the HTTP method
	 * @param path the path pattern
	 * @param fallback the kind of fallback
	 * @param requires the dependencies the route needs
	 * @param fallbacksServed how many times the fallback answered since start
	 */
	public record RouteDescriptor(String method, String path, String fallback, List<String> requires,
			long fallbacksServed) {

	}

	/**
	 * A dependency as shown by the endpoint.
	 *
	 * @param name the dependency name
	 * @param healthUrl the probed URL
	 * @param timeoutMs the probe timeout in milliseconds
	 */
	public record DependencyDescriptor(String name, URI healthUrl, long timeoutMs) {

	}

}

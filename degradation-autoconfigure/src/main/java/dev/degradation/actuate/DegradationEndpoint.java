package dev.degradation.actuate;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.ShedDemand;
import dev.degradation.engine.ShedSignal;
import dev.degradation.engine.Simulation;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.DependencyStatus;
import dev.degradation.monitor.ProbeResult;

/**
 * The {@code degradation} Actuator endpoint: reads the active shed level, what it sheds and why,
 * and the state of every dependency; switches simulation and forces dependencies down or up so
 * that CI can exercise the degraded paths. Writing is off by default
 * ({@link Access#READ_ONLY}); it takes {@code management.endpoint.degradation.access=unrestricted}
 * and should then be secured, since it can shed the service's features.
 */
@Endpoint(id = "degradation", defaultAccess = Access.READ_ONLY)
@RegisterReflectionForBinding({ DegradationEndpoint.DegradationDescriptor.class,
		DegradationEndpoint.SignalDescriptor.class, DegradationEndpoint.TierDescriptor.class,
		DegradationEndpoint.RouteDescriptor.class, DegradationEndpoint.DependencyDescriptor.class,
		DegradationEndpoint.ProbeDescriptor.class, Simulation.class })
public class DegradationEndpoint {

	/** The path segment under which the dependencies are addressed. */
	public static final String DEPENDENCIES = "dependencies";

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

	/**
	 * Put the engine back as it started: simulation off, forced dependencies released, windows and
	 * hysteresis forgotten.
	 * @return the description after the reset
	 */
	@DeleteOperation
	public DegradationDescriptor reset() {
		return describe(this.engine.reset());
	}

	/**
	 * Force a dependency down or up, whatever its probes say, until released.
	 * @param section must be {@value #DEPENDENCIES}
	 * @param name the dependency name
	 * @param state {@code down} or {@code up}
	 * @return the description after the change
	 * @throws NoSuchElementException if there is no such section or dependency
	 * @throws InvalidEndpointRequestException if the state is neither {@code down} nor {@code up}
	 */
	@WriteOperation
	public DegradationDescriptor forceDependency(@Selector String section, @Selector String name,
			@Nullable String state) {
		checkSection(section);
		DependencyState forced = parseForcedState(state);
		this.engine.forceDependency(name, forced);
		return describe(this.engine.state());
	}

	/**
	 * Stop forcing a dependency; its probes decide again.
	 * @param section must be {@value #DEPENDENCIES}
	 * @param name the dependency name
	 * @return the description after the change
	 * @throws NoSuchElementException if there is no such section or dependency
	 */
	@DeleteOperation
	public DegradationDescriptor releaseDependency(@Selector String section, @Selector String name) {
		checkSection(section);
		this.engine.releaseDependency(name);
		return describe(this.engine.state());
	}

	/**
	 * The health URL without user information and query, which placeholders may have filled
	 * with credentials; readers of the endpoint need not be trusted with them.
	 */
	private static URI withoutSecrets(URI url) {
		if (url.getRawUserInfo() == null && url.getRawQuery() == null) {
			return url;
		}
		try {
			return new URI(url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), null, null);
		}
		catch (java.net.URISyntaxException ex) {
			return URI.create(url.getScheme() + "://" + url.getHost());
		}
	}

	private static void checkSection(String section) {
		if (!DEPENDENCIES.equals(section)) {
			throw new NoSuchElementException("Nothing at '" + section + "'; use '" + DEPENDENCIES + "/{name}'");
		}
	}

	private static DependencyState parseForcedState(@Nullable String state) {
		String value = (state != null) ? state.trim().toLowerCase(Locale.ROOT) : "";
		return switch (value) {
			case "down" -> DependencyState.FAILED;
			case "up" -> DependencyState.HEALTHY;
			default -> throw new InvalidEndpointRequestException(
					"'state' must be 'down' or 'up', but was " + ((state != null) ? "'" + state + "'" : "missing"),
					"'state' must be 'down' or 'up'");
		};
	}

	private DegradationDescriptor describe(DegradationState state) {
		DegradationManifest manifest = this.engine.manifest();
		List<TierDescriptor> tiers = new ArrayList<>();
		int index = 0;
		for (Tier tier : manifest.tiers()) {
			List<RouteDescriptor> routes = new ArrayList<>();
			for (Route route : tier.routes()) {
				String cause = state.shedCause(index);
				routes.add(new RouteDescriptor(route.method(), route.path(), route.fallback().kind(), route.requires(),
						cause != null, cause, this.engine.fallbackCounts().count(index++)));
			}
			tiers.add(new TierDescriptor(tier.name(), tier.priority(), state.sheds(tier.priority()), routes));
		}
		Map<String, DependencyDescriptor> dependencies = new LinkedHashMap<>();
		for (Dependency dependency : manifest.dependencies()) {
			DependencyStatus status = this.engine.dependency(dependency.name());
			ProbeResult last = status.lastProbe();
			dependencies.put(dependency.name(), new DependencyDescriptor(status.state(), status.computedState(),
					status.forced(), Math.round(status.errorRate() * 1000) / 1000.0, status.samples(),
					(last != null) ? new ProbeDescriptor(last.outcome(), last.healthy(), last.detail(),
							last.latency().toMillis(), last.at()) : null,
					withoutSecrets(dependency.healthUrl()), dependency.healthCheck().timeout().toMillis(),
					dependency.healthCheck().interval().toMillis()));
		}
		Map<String, SignalDescriptor> signals = new LinkedHashMap<>();
		for (ShedSignal signal : this.engine.signals()) {
			ShedDemand demand = state.demands().getOrDefault(signal.name(), ShedDemand.NONE);
			signals.put(signal.name(), new SignalDescriptor(demand.level(), demand.exact(), demand.routes().size(),
					demand.reason()));
		}
		return new DegradationDescriptor(state.level(), state.computedLevel(), state.simulation(), state.shedTiers(),
				state.changedAt(), state.reason(), signals, tiers, dependencies);
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
	 * @param signals what each shed signal demands now, by signal name
	 * @param tiers every tier, in shed order
	 * @param dependencies every declared dependency by name, in manifest order
	 */
	public record DegradationDescriptor(int level, int computedLevel, Simulation simulation, List<String> shedTiers,
			Instant changedAt, String reason, Map<String, SignalDescriptor> signals, List<TierDescriptor> tiers,
			Map<String, DependencyDescriptor> dependencies) implements OperationResponseBody {

	}

	/**
	 * What one shed signal demands now.
	 *
	 * @param level the level it demands, 0 for none
	 * @param exact whether that level replaces the others' (simulation)
	 * @param routes how many routes it demands shed on their own, whatever the level
	 * @param reason why, empty when it demands nothing
	 */
	public record SignalDescriptor(int level, boolean exact, int routes, String reason) {

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
	 * @param shed whether the route is shed now
	 * @param shedReason why it is shed, as in the {@code X-Degradation-Reason} header; {@code null}
	 * when it is not
	 * @param fallbacksServed how many times the fallback answered since start
	 */
	public record RouteDescriptor(String method, String path, String fallback, List<String> requires, boolean shed,
			@Nullable String shedReason, long fallbacksServed) {

	}

	/**
	 * A dependency as shown by the endpoint.
	 *
	 * @param state the effective state
	 * @param computedState the state its probes imply
	 * @param forced whether the state is forced
	 * @param errorRate the error rate over the window, from 0 to 1
	 * @param samples the number of probe results in the window
	 * @param lastProbe the last probe, if any
	 * @param healthUrl the probed URL
	 * @param timeoutMs the probe timeout in milliseconds
	 * @param intervalMs the time between probes in milliseconds
	 */
	public record DependencyDescriptor(DependencyState state, DependencyState computedState, boolean forced,
			double errorRate, int samples, @Nullable ProbeDescriptor lastProbe, URI healthUrl, long timeoutMs,
			long intervalMs) {

	}

	/**
	 * The last probe of a dependency.
	 *
	 * @param outcome {@code ok}, {@code http_5xx}, {@code timeout}, {@code refused}, ...
	 * @param healthy whether the probe counted as healthy
	 * @param detail a human-readable detail
	 * @param latencyMs how long it took, in milliseconds
	 * @param at when it finished
	 */
	public record ProbeDescriptor(String outcome, boolean healthy, String detail, long latencyMs, Instant at) {

	}

}

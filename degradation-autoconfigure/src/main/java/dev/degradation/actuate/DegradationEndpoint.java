package dev.degradation.actuate;

import java.net.URI;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.engine.ShedSignal;
import dev.degradation.engine.Simulation;
import dev.degradation.monitor.BreakerState;
import dev.degradation.monitor.DependencyState;
import dev.degradation.web.HandlerRoute;

/**
 * The {@code degradation} Actuator endpoint: reads the active shed level, what it sheds and why,
 * and the state of every dependency; switches simulation and forces dependencies down or up so
 * that CI can exercise the degraded paths. Writing is off by default
 * ({@link Access#READ_ONLY}); it takes {@code management.endpoint.degradation.access=unrestricted}
 * and should then be secured, since it can shed the service's features.
 * <p>
 * The operations only declare what Actuator maps and who asks: the read model
 * ({@link DegradationDescriber}) builds every answer and the writes ({@link EndpointWrites}) change
 * the engine, so that each job reads in one place. The answer's records stay nested here, as Spring
 * Boot's endpoints keep their descriptors.
 */
@Endpoint(id = "degradation", defaultAccess = Access.READ_ONLY)
@RegisterReflectionForBinding({ DegradationEndpoint.DegradationDescriptor.class,
		DegradationEndpoint.SignalDescriptor.class, DegradationEndpoint.TierDescriptor.class,
		DegradationEndpoint.RouteDescriptor.class, DegradationEndpoint.HoldDescriptor.class,
		DegradationEndpoint.DependencyDescriptor.class,
		DegradationEndpoint.ProbeDescriptor.class, DegradationEndpoint.OverrideDescriptor.class, Simulation.class })
public class DegradationEndpoint {

	/** The path segment under which the dependencies are addressed. */
	public static final String DEPENDENCIES = "dependencies";

	/** The path segment under which the switches are addressed. */
	public static final String SWITCHES = "switches";

	/** The path segment of the manifest, reloaded by a write. */
	public static final String MANIFEST = "manifest";

	private final DegradationEngine engine;

	private final DegradationDescriber describer;

	private final EndpointWrites writes;

	/**
	 * Say in the endpoint's answer that requests may ask for their own simulation
	 * ({@link RequestSimulation}), under {@code requestSimulation}.
	 * @param enabled whether they may
	 */
	public void setRequestSimulation(boolean enabled) {
		this.describer.setRequestSimulation(enabled);
	}

	/**
	 * Create an endpoint whose overrides live at most a day, without manifest reload.
	 * @param engine the engine to show and control
	 */
	public DegradationEndpoint(DegradationEngine engine) {
		this(engine, Duration.ofDays(1), null);
	}

	/**
	 * Create an endpoint.
	 * @param engine the engine to show and control
	 * @param maxTtl the longest time to live an override may ask for
	 * @param manifestReload how the manifest is reloaded, or {@code null} when it cannot be (a
	 * manifest given as a bean has no location)
	 */
	public DegradationEndpoint(DegradationEngine engine, Duration maxTtl, @Nullable ManifestReload manifestReload) {
		this(engine, maxTtl, manifestReload, null);
	}

	/**
	 * Create an endpoint that says of every route whether a handler of the application serves it.
	 * @param engine the engine to show and control
	 * @param maxTtl the longest time to live an override may ask for
	 * @param manifestReload how the manifest is reloaded, or {@code null} when it cannot be (a
	 * manifest given as a bean has no location)
	 * @param handlers the application's handlers, or {@code null} when they are not known
	 */
	public DegradationEndpoint(DegradationEngine engine, Duration maxTtl, @Nullable ManifestReload manifestReload,
			@Nullable Supplier<List<HandlerRoute>> handlers) {
		this(engine, maxTtl, manifestReload, handlers, List::of);
	}

	/**
	 * Create an endpoint that also shows sections of other parts of the starter.
	 * @param engine the engine to show and control
	 * @param maxTtl the longest time to live an override may ask for
	 * @param manifestReload how the manifest is reloaded, or {@code null} when it cannot be (a
	 * manifest given as a bean has no location)
	 * @param handlers the application's handlers, or {@code null} when they are not known
	 * @param sections the further sections, read at each request, after the signals' own
	 */
	public DegradationEndpoint(DegradationEngine engine, Duration maxTtl, @Nullable ManifestReload manifestReload,
			@Nullable Supplier<List<HandlerRoute>> handlers, Supplier<List<EndpointSection>> sections) {
		this.engine = engine;
		this.describer = new DegradationDescriber(engine, handlers, sections);
		this.writes = new EndpointWrites(engine, maxTtl, manifestReload);
	}

	/**
	 * Reload the manifest from its configured location ({@code POST manifest}): validated whole,
	 * then made active with the route table, keeping what is known of unchanged dependencies and
	 * re-applying the switches; a manifest with any problem is refused and the active one stays.
	 * @param section must be {@value #MANIFEST}
	 * @param security who asks, for the audit line
	 * @return the description after the reload
	 * @throws NoSuchElementException if there is no such section, or no reload
	 * @throws ManifestRefusedException if the new manifest has problems
	 */
	@WriteOperation
	public DegradationDescriptor reload(@Selector String section, SecurityContext security) {
		return describe(this.writes.reload(section, principal(security)));
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
	 * @param ttl how long simulation holds, such as {@code 15m}; without it, until turned off
	 * @param security who asks, for the audit line
	 * @return the description after the change
	 */
	@WriteOperation
	public DegradationDescriptor simulate(boolean enabled, @Nullable Integer level, @Nullable String ttl,
			SecurityContext security) {
		return describe(this.writes.simulate(enabled, level, ttl, principal(security)));
	}

	/**
	 * Put the engine back as it started: simulation off, forced dependencies released, switch
	 * overrides removed, windows and hysteresis forgotten.
	 * @param security who asks, for the audit line
	 * @return the description after the reset
	 */
	@DeleteOperation
	public DegradationDescriptor reset(SecurityContext security) {
		return describe(this.writes.reset(principal(security)));
	}

	/**
	 * Force a dependency down or up, whatever its probes say, until released
	 * ({@code dependencies/{name}}, {@code state} {@code down} or {@code up}), or switch a tier or
	 * a named route off or on over the configuration ({@code switches/{name}}, {@code state}
	 * {@code off} or {@code on}, optional {@code ttl}).
	 * @param section {@value #DEPENDENCIES} or {@value #SWITCHES}
	 * @param name the dependency, or the tier or route name
	 * @param state the state to set
	 * @param ttl for a switch, how long it holds, such as {@code 15m}; without it, until removed
	 * @param security who asks, for the audit line
	 * @return the description after the change
	 * @throws NoSuchElementException if there is no such section or name
	 * @throws InvalidEndpointRequestException if the state or the time to live is not valid
	 */
	@WriteOperation
	public DegradationDescriptor write(@Selector String section, @Selector String name, @Nullable String state,
			@Nullable String ttl, SecurityContext security) {
		return describe(this.writes.write(section, name, state, ttl, principal(security)));
	}

	/**
	 * Stop forcing a dependency ({@code dependencies/{name}}: its probes decide again), or remove
	 * a switch's override ({@code switches/{name}}: the configuration decides again).
	 * @param section {@value #DEPENDENCIES} or {@value #SWITCHES}
	 * @param name the dependency, or the tier or route name
	 * @param security who asks, for the audit line
	 * @return the description after the change
	 * @throws NoSuchElementException if there is no such section or name
	 */
	@DeleteOperation
	public DegradationDescriptor remove(@Selector String section, @Selector String name, SecurityContext security) {
		return describe(this.writes.remove(section, name, principal(security)));
	}

	private DegradationDescriptor describe(DegradationState state) {
		return this.describer.describe(state);
	}

	private static String principal(@Nullable SecurityContext security) {
		Principal principal = (security != null) ? security.getPrincipal() : null;
		return (principal != null) ? principal.getName() : "anonymous";
	}

	/**
	 * The endpoint's answer.
	 *
	 * @param manifest where the active manifest was loaded from
	 * @param level the active shed level: every tier whose priority is at most this is shed (a
	 * switch sheds a tier or a route without raising it)
	 * @param computedLevel the level that applies when simulation is off
	 * @param simulation the simulation setting
	 * @param shedTiers the names of the tiers every route of which is shed now, whatever the cause
	 * (the level, a switch, failed dependencies), in shed order
	 * @param changedAt when the active level last changed
	 * @param reason why the active level is what it is
	 * @param signals every shed signal, by signal name, in the engine's order: its kind and what it
	 * demands now
	 * @param overrides what operators set at run time on every signal (forced dependencies,
	 * simulation, switches), with who, when and until when
	 * @param tiers every tier, in shed order
	 * @param dependencies every declared dependency by name, in manifest order
	 * @param sections what the signals add, each at the top level of the answer under its own key
	 * ({@link ShedSignal#sections}): the switches' {@code switches}, admission's {@code overload}
	 * while the manifest has an {@code overload} section, a signal of the application's own
	 */
	public record DegradationDescriptor(String manifest, int level, int computedLevel, Simulation simulation, List<String> shedTiers,
			Instant changedAt, String reason, Map<String, SignalDescriptor> signals, List<OverrideDescriptor> overrides,
			List<TierDescriptor> tiers, Map<String, DependencyDescriptor> dependencies,
			@JsonAnyGetter Map<String, Object> sections) implements OperationResponseBody {

	}

	/**
	 * A setting an operator made at run time.
	 *
	 * @param target what it sets: {@code simulation}, {@code switches/<name>}, or
	 * {@code dependencies/<name>} (a forced dependency, until released)
	 * @param state what it set it to
	 * @param by who set it
	 * @param at when
	 * @param until when it ends by itself, or {@code null} for never
	 */
	public record OverrideDescriptor(String target, String state, String by, Instant at, @Nullable Instant until) {

	}

	/**
	 * One shed signal: its kind and what it demands now.
	 *
	 * @param kind the signal's {@link ShedSignal#kind() kind}, the first part of its causes and the
	 * {@code cause} under which the routes it sheds are counted
	 * @param level the level it demands, 0 for none
	 * @param exact whether that level replaces the others' (simulation)
	 * @param routes how many routes it demands shed on their own, whatever the level
	 * @param reason why, empty when it demands nothing
	 */
	public record SignalDescriptor(String kind, int level, boolean exact, int routes, String reason) {

	}

	/**
	 * A tier as shown by the endpoint.
	 *
	 * @param name the tier name
	 * @param priority the shed order
	 * @param shed whether every route of the tier is shed now
	 * @param routes the tier's routes
	 */
	public record TierDescriptor(String name, int priority, boolean shed, List<RouteDescriptor> routes) {

	}

	/**
	 * A route as shown by the endpoint.
	 *
	 * @param name the route's name, by which it is switched alone, or {@code null}
	 * @param method the HTTP method
	 * @param path the path pattern
	 * @param fallback the kind of fallback
	 * @param fallbackStatus the status its fallback answers with, or {@code null} when that depends
	 * on what the route holds ({@code stale})
	 * @param requires the dependencies the route needs
	 * @param shed whether the route is shed now
	 * @param shedReason why it is shed, as in the {@code X-Degradation-Reason} header; {@code null}
	 * when it is not
	 * @param restoresAt when the route comes back if nothing changes (the latest restore time of
	 * the rules that hold it); {@code null} when it is not shed, or while a rule that holds it waits
	 * for a condition rather than a time (a dependency that has not recovered, a switch without a
	 * time to live)
	 * @param heldBy every rule that holds the route shed, one per signal that sheds it, in the
	 * engine's order of signals; empty when it is not shed
	 * @param fallbacksServed how many times the fallback answered since start
	 * @param position where the route is declared in the manifest, as {@code line:column}
	 * @param handled whether a handler of the application serves the route, or {@code null} when
	 * the handlers are not known
	 */
	public record RouteDescriptor(@Nullable String name, String method, String path, String fallback,
			@Nullable Integer fallbackStatus, List<String> requires, boolean shed, @Nullable String shedReason,
			@Nullable Instant restoresAt, List<HoldDescriptor> heldBy, long fallbacksServed, String position,
			@Nullable Boolean handled) {

	}

	/**
	 * A rule that holds a shed route, and when it lets the route go.
	 *
	 * @param signal the shed signal the rule belongs to, such as {@code dependencies}
	 * @param rule the rule's short name, such as {@code dependency-failed},
	 * {@code dependency-hysteresis}, {@code level-hysteresis}, {@code simulation}, or the signal's
	 * short cause when it does not say
	 * @param detail what holds the route and what lets it go, for people
	 * @param restoresAt when the rule lets the route go if nothing changes, or {@code null} while
	 * it waits for a condition
	 */
	public record HoldDescriptor(String signal, String rule, String detail, @Nullable Instant restoresAt) {

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
	 * @param healthUrl the probed URL, or {@code null} when it is judged by a health indicator or
	 * by its calls
	 * @param timeoutMs the probe timeout in milliseconds
	 * @param intervalMs the time between probes in milliseconds
	 * @param breaker the state of the breaker that guards the application's calls
	 * @param breakerChangedAt when the breaker last changed state, or {@code null} if it never did
	 * @param breakerNote what the breaker's state means for the calls now ({@code OPEN}: refused
	 * until when; {@code HALF_OPEN}: the next calls test it), or {@code null} while it is closed
	 */
	public record DependencyDescriptor(DependencyState state, DependencyState computedState, boolean forced,
			double errorRate, int samples, @Nullable ProbeDescriptor lastProbe, @Nullable URI healthUrl, long timeoutMs,
			long intervalMs, BreakerState breaker, @Nullable Instant breakerChangedAt, @Nullable String breakerNote) {

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

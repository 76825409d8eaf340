package dev.degradation.actuate;

import java.net.URI;
import java.security.Principal;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.time.Instant;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonAnyGetter;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.convert.DurationStyle;

import dev.degradation.engine.RequestSimulation;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.ShedDemand;
import dev.degradation.engine.ShedHold;
import dev.degradation.engine.ShedSignal;
import dev.degradation.engine.SignalOverride;
import dev.degradation.engine.SwitchSignal;
import dev.degradation.engine.SwitchState;
import dev.degradation.engine.Simulation;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.Tier;
import dev.degradation.monitor.BreakerState;
import dev.degradation.monitor.DependencyState;
import dev.degradation.monitor.DependencyStatus;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.web.HandlerRoute;
import dev.degradation.web.ManifestRouteCheck;

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

	private static final Log logger = LogFactory.getLog(DegradationEndpoint.class);

	/** The answer's own fields, which no signal's section may take. */
	private static final Set<String> OWN_FIELDS = Arrays.stream(DegradationDescriptor.class.getRecordComponents())
		.map(RecordComponent::getName)
		.collect(Collectors.toUnmodifiableSet());

	private volatile boolean requestSimulation;

	private final DegradationEngine engine;

	/** A TTL in Boot's simple form with its unit: {@code 90s}, {@code 15m}, {@code 2h}, {@code 1d}. */
	private static final Pattern TTL_WITH_UNIT = Pattern.compile("\\+?\\d{1,9}(ns|us|ms|s|m|h|d)",
			Pattern.CASE_INSENSITIVE);

	/** The shortest TTL: an override that ends before an operator can read it is a mistake. */
	private static final Duration MIN_TTL = Duration.ofSeconds(1);

	private final Duration maxTtl;

	private final @Nullable ManifestReload manifestReload;

	private final @Nullable Supplier<List<HandlerRoute>> handlers;

	private volatile @Nullable HandledRoutes handled;

	private final Supplier<List<EndpointSection>> extraSections;

	/**
	 * Say in the endpoint's answer that requests may ask for their own simulation
	 * ({@link RequestSimulation}), under {@code requestSimulation}.
	 * @param enabled whether they may
	 */
	public void setRequestSimulation(boolean enabled) {
		this.requestSimulation = enabled;
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
		this.maxTtl = maxTtl;
		this.manifestReload = manifestReload;
		this.handlers = handlers;
		this.extraSections = sections;
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
		if (!MANIFEST.equals(section) || this.manifestReload == null) {
			throw new NoSuchElementException("Nothing at '" + section + "'"
					+ ((this.manifestReload != null) ? "; use '" + MANIFEST + "' to reload the manifest"
							: "; the manifest is a bean of the application and cannot be reloaded"));
		}
		ManifestReload.Result result = this.manifestReload.reload(principal(security));
		if (!result.reloaded()) {
			throw new ManifestRefusedException(result);
		}
		return describe(this.engine.state());
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
		String by = principal(security);
		if (!enabled) {
			if (ttl != null) {
				throw badRequest("'ttl' is taken only when simulation is turned on");
			}
			DegradationState state = this.engine.stopSimulation();
			logger.info("Simulation off, by " + by);
			return describe(state);
		}
		if (level == null) {
			throw badRequest("'level' is required when 'enabled' is true");
		}
		Duration duration = parseTtl(ttl);
		try {
			DegradationState state = this.engine.simulate(level, duration, by);
			logger.info("Simulation at level " + level + " by " + by + until(duration));
			return describe(state);
		}
		catch (IllegalArgumentException ex) {
			throw badRequest(ex.getMessage());
		}
	}

	/**
	 * Put the engine back as it started: simulation off, forced dependencies released, switch
	 * overrides removed, windows and hysteresis forgotten.
	 * @param security who asks, for the audit line
	 * @return the description after the reset
	 */
	@DeleteOperation
	public DegradationDescriptor reset(SecurityContext security) {
		DegradationState state = this.engine.reset();
		logger.info("Degradation reset by " + principal(security));
		return describe(state);
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
		String by = principal(security);
		if (DEPENDENCIES.equals(section)) {
			if (ttl != null) {
				throw badRequest("'ttl' is not taken when forcing a dependency: it holds until released");
			}
			DependencyState forced = parseForcedState(state);
			this.engine.forceDependency(name, forced, by);
			logger.info("Dependency '" + name + "' forced " + state.trim().toLowerCase(Locale.ROOT) + " by " + by);
			return describe(this.engine.state());
		}
		SwitchSignal switches = switches(section);
		checkSwitch(switches, name);
		SwitchState switched = parseSwitchState(state);
		Duration duration = parseTtl(ttl);
		switches.override(name, switched, duration, by, this.engine.clock().instant());
		DegradationState after = this.engine.evaluate();
		logger.info("Switch '" + name + "' " + switched.name().toLowerCase(Locale.ROOT) + " by " + by + until(duration));
		return describe(after);
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
		String by = principal(security);
		if (DEPENDENCIES.equals(section)) {
			this.engine.releaseDependency(name);
			logger.info("Dependency '" + name + "' released by " + by);
			return describe(this.engine.state());
		}
		SwitchSignal switches = switches(section);
		checkSwitch(switches, name);
		switches.removeOverride(name);
		DegradationState after = this.engine.evaluate();
		logger.info("Switch '" + name + "' override removed by " + by + "; configured: "
				+ switches.state(name).name().toLowerCase(Locale.ROOT));
		return describe(after);
	}

	private SwitchSignal switches(String section) {
		if (SWITCHES.equals(section)) {
			for (ShedSignal signal : this.engine.signals()) {
				if (signal instanceof SwitchSignal switches) {
					return switches;
				}
			}
		}
		throw new NoSuchElementException(
				"Nothing at '" + section + "'; use '" + DEPENDENCIES + "/{name}' or '" + SWITCHES + "/{name}'");
	}

	private static void checkSwitch(SwitchSignal switches, String name) {
		if (!switches.names().contains(name)) {
			throw new NoSuchElementException("No tier or named route called '" + name + "'; the switches are: "
					+ String.join(", ", switches.names()));
		}
	}

	private @Nullable Duration parseTtl(@Nullable String ttl) {
		if (ttl == null) {
			return null;
		}
		String text = ttl.trim();
		Duration duration = null;
		// A TTL says its unit: a bare number (which Boot would read as milliseconds) is refused.
		if (TTL_WITH_UNIT.matcher(text).matches()) {
			duration = DurationStyle.SIMPLE.parse(text);
		}
		else if (text.regionMatches(true, 0, "P", 0, 1)) {
			try {
				duration = DurationStyle.ISO8601.parse(text);
			}
			catch (IllegalArgumentException ex) {
				duration = null;
			}
		}
		if (duration == null) {
			throw badRequest("'ttl' must be a duration with its unit, such as '90s', '15m', '2h' or 'PT15M', but was '"
					+ ttl + "'");
		}
		if (duration.compareTo(MIN_TTL) < 0 || duration.compareTo(this.maxTtl) > 0) {
			throw badRequest("'ttl' must be at least 1s and at most " + readable(this.maxTtl)
					+ " ('degradation.overrides.max-ttl'), but was '" + ttl + "'");
		}
		return duration;
	}

	private String until(@Nullable Duration ttl) {
		return (ttl != null) ? " for " + readable(ttl) + " (until "
				+ this.engine.clock().instant().plus(ttl) + ")" : " until removed";
	}

	/**
	 * A duration in the largest unit that it is a whole number of, as an operator writes it:
	 * {@code 15m}, {@code 1d}, {@code 90s}.
	 */
	private static String readable(Duration duration) {
		for (ChronoUnit unit : new ChronoUnit[] { ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES,
				ChronoUnit.SECONDS }) {
			if (duration.toMillis() % unit.getDuration().toMillis() == 0) {
				return DurationStyle.SIMPLE.print(duration, unit);
			}
		}
		return DurationStyle.SIMPLE.print(duration, ChronoUnit.MILLIS);
	}

	private static String principal(@Nullable SecurityContext security) {
		Principal principal = (security != null) ? security.getPrincipal() : null;
		return (principal != null) ? principal.getName() : "anonymous";
	}

	private static InvalidEndpointRequestException badRequest(String message) {
		return new InvalidEndpointRequestException(message, message);
	}

	/**
	 * The health URL without user information and query, which placeholders may have filled
	 * with credentials; readers of the endpoint need not be trusted with them.
	 */
	private static @Nullable URI withoutSecrets(@Nullable URI url) {
		if (url == null || url.getRawUserInfo() == null && url.getRawQuery() == null) {
			return url;
		}
		try {
			return new URI(url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), null, null);
		}
		catch (java.net.URISyntaxException ex) {
			return URI.create(url.getScheme() + "://" + url.getHost());
		}
	}

	/**
	 * Read a switch's state as the documentation writes it, and only so: a write is typed strictly,
	 * so {@code "OFF"} or {@code " off "} is refused with what is accepted rather than guessed at.
	 */
	private static SwitchState parseSwitchState(@Nullable String state) {
		return switch ((state != null) ? state : "") {
			case "off" -> SwitchState.OFF;
			case "on" -> SwitchState.ON;
			default -> throw badRequest(
					"'state' must be 'off' or 'on', but was " + ((state != null) ? "'" + state + "'" : "missing"));
		};
	}

	private static DependencyState parseForcedState(@Nullable String state) {
		return switch ((state != null) ? state : "") {
			case "down" -> DependencyState.FAILED;
			case "up" -> DependencyState.HEALTHY;
			default -> throw new InvalidEndpointRequestException(
					"'state' must be 'down' or 'up', but was " + ((state != null) ? "'" + state + "'" : "missing"),
					"'state' must be 'down' or 'up'");
		};
	}

	private DegradationDescriptor describe(DegradationState state) {
		DegradationManifest manifest = state.manifest();
		HandledRoutes handledRoutes = handled(manifest);
		List<TierDescriptor> tiers = new ArrayList<>();
		List<String> shedTiers = new ArrayList<>();
		int index = 0;
		for (Tier tier : manifest.tiers()) {
			List<RouteDescriptor> routes = new ArrayList<>();
			boolean everyRouteShed = !tier.routes().isEmpty();
			for (Route route : tier.routes()) {
				String cause = state.shedCause(index);
				everyRouteShed = everyRouteShed && cause != null;
				List<HoldDescriptor> heldBy = new ArrayList<>();
				ShedHold last = null;
				for (Map.Entry<String, ShedHold> held : state.holds(index).entrySet()) {
					ShedHold hold = held.getValue();
					heldBy.add(new HoldDescriptor(held.getKey(), hold.rule(), hold.detail(), hold.restoresAt()));
					last = (last != null) ? last.later(hold) : hold;
				}
				routes.add(new RouteDescriptor(route.name(), route.method(), route.path(), route.fallback().kind(),
						fallbackStatus(route.fallback()), route.requires(), cause != null, cause,
						(last != null) ? last.restoresAt() : null, heldBy, this.engine.fallbackCounts().count(index),
						route.position().toString(), handledRoutes.handled(index)));
				index++;
			}
			// A tier is shed when every route of it is, whatever the cause: the level, a switch
			// that turned it off, the dependencies its routes require.
			boolean shed = state.sheds(tier.priority()) || everyRouteShed;
			if (shed) {
				shedTiers.add(tier.name());
			}
			tiers.add(new TierDescriptor(tier.name(), tier.priority(), shed, routes));
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
					dependency.healthCheck().interval().toMillis(), status.breaker(), status.breakerChangedAt(),
					breakerNote(dependency, status)));
		}
		Map<String, SignalDescriptor> signals = new LinkedHashMap<>();
		List<OverrideDescriptor> overrides = new ArrayList<>();
		Map<String, Object> sections = new LinkedHashMap<>();
		for (ShedSignal signal : this.engine.signals()) {
			ShedDemand demand = state.demands().getOrDefault(signal.name(), ShedDemand.NONE);
			signals.put(signal.name(), new SignalDescriptor(signal.kind(), demand.level(), demand.exact(),
					demand.routes().size(), demand.reason()));
			for (SignalOverride override : signal.runTimeOverrides()) {
				overrides.add(new OverrideDescriptor(override.target(), override.state(), override.by(), override.at(),
						override.until()));
			}
			signal.sections(state).forEach((key, section) -> {
				// A section never hides a field of the answer nor another signal's section.
				if (!OWN_FIELDS.contains(key) && !sections.containsKey(key)) {
					sections.put(key, section);
				}
			});
		}
		if (this.requestSimulation) {
			// Whether requests may simulate for themselves, so that a tool can walk the service
			// without moving its level; the token is never shown.
			Map<String, Object> requestSimulation = new LinkedHashMap<>();
			requestSimulation.put("enabled", true);
			requestSimulation.put("header", RequestSimulation.HEADER);
			requestSimulation.put("tokenHeader", RequestSimulation.TOKEN_HEADER);
			sections.putIfAbsent("requestSimulation", requestSimulation);
		}
		for (EndpointSection section : this.extraSections.get()) {
			if (!OWN_FIELDS.contains(section.name()) && !sections.containsKey(section.name())) {
				sections.put(section.name(), section.content().get());
			}
		}
		return new DegradationDescriptor(manifest.source(), state.level(), state.computedLevel(), state.simulation(),
				shedTiers, state.changedAt(), state.reason(), signals, overrides, tiers, dependencies, sections);
	}

	/**
	 * What the breaker's state means for the dependency's calls now. A half-open breaker is shown
	 * as what it is: it stays half-open, after its routes are served again, until the application
	 * calls the dependency, since only calls (not probes) test it.
	 */
	private static @Nullable String breakerNote(Dependency dependency, DependencyStatus status) {
		return switch (status.breaker()) {
			case CLOSED -> null;
			case OPEN -> "open: calls are refused at once; it lets trial calls through "
					+ ((status.breakerChangedAt() != null)
							? "from " + status.breakerChangedAt().plus(dependency.calls().breaker().open()) + " " : "")
					+ "(open_ms " + dependency.calls().breaker().open().toMillis() + ")";
			case HALF_OPEN -> "half-open: the next " + dependency.calls().breaker().halfOpenCalls()
					+ " calls to it are trials that close the breaker or open it again; it stays half-open until "
					+ "the application calls it (probes do not count), so it is shown half-open after its routes "
					+ "are served again, until traffic flows";
		};
	}

	/**
	 * The status of a fallback's answer, or {@code null} when it depends on what the route holds
	 * ({@code stale}: its copy, its static answer or 503).
	 */
	private static @Nullable Integer fallbackStatus(Fallback fallback) {
		int status = fallback.answerStatus();
		return (status != Fallback.STATUS_OF_WHAT_IT_HOLDS) ? status : null;
	}

	/**
	 * Whether a handler serves each route of the manifest, worked out once per manifest: the
	 * handlers do not change once the application runs.
	 */
	private HandledRoutes handled(DegradationManifest manifest) {
		HandledRoutes known = this.handled;
		if (known != null && known.manifest() == manifest) {
			return known;
		}
		List<HandlerRoute> handlerRoutes = (this.handlers != null) ? this.handlers.get() : List.of();
		List<Route> routes = manifest.routes();
		@Nullable Boolean[] handled = new Boolean[routes.size()];
		if (!handlerRoutes.isEmpty()) {
			for (int i = 0; i < routes.size(); i++) {
				handled[i] = ManifestRouteCheck.serves(routes.get(i), handlerRoutes);
			}
		}
		known = new HandledRoutes(manifest, handled);
		this.handled = known;
		return known;
	}

	private record HandledRoutes(DegradationManifest manifest, @Nullable Boolean[] routes) {

		@Nullable Boolean handled(int index) {
			return this.routes[index];
		}

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

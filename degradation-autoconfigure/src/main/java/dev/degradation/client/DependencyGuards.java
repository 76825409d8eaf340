package dev.degradation.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.ManifestReplaced;
import dev.degradation.manifest.BreakerPolicy;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.ServiceUrl;
import dev.degradation.monitor.BreakerState;

/**
 * The guards of every dependency of the manifest, by name and by the URLs the application calls:
 * the API for code that calls a dependency ({@code guards.call("payments", () -> ...)}) and what
 * the {@code RestClient} interceptor looks calls up in. Builds each guard's breaker, time limiter
 * and retry in the given Resilience4j registries, named after the dependency, and reports every
 * transition of a breaker to the engine as evidence of the dependency's state. The calls that need
 * a thread of their own run on one bounded {@link GuardExecutor}, closed with the guards.
 *
 * <p>Given registries, the guards are built at once, in them. Given the registries' suppliers,
 * they are built at the first use (a call, a URL looked up, the list of guards): an application
 * whose first requests call no dependency then loads none of Resilience4j while it starts, and a
 * registry nobody else sees holds nothing a caller could miss meanwhile.
 */
public final class DependencyGuards implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(DependencyGuards.class);

	/** How many calls may hold a thread of the default executor at once. */
	public static final int DEFAULT_MAX_THREADED_CALLS = 200;

	private final DegradationEngine engine;

	private final Supplier<CircuitBreakerRegistry> breakerRegistry;

	private final Supplier<TimeLimiterRegistry> timeLimiterRegistry;

	private final Supplier<RetryRegistry> retryRegistry;

	/** The registries, from their suppliers at the first build; only written under the lock. */
	private @Nullable Registries registries;

	private final GuardExecutor executor;

	private final DependencyGuard.Sleeper sleeper;

	private final ReentrantLock rebuilding = new ReentrantLock();

	/** The names of the breakers this object put in the registry, to tell them from others. */
	private final Set<String> created = ConcurrentHashMap.newKeySet();

	/** The guards of the engine's manifest; {@code null} until the first use. */
	private volatile @Nullable Guarding guarding;

	/**
	 * Create the guards of an engine's dependencies. They follow the engine's manifest: after a
	 * reload, a dependency whose call budget is unchanged keeps its guard (and its breaker's
	 * state), a changed one gets a new guard, a new one its first, and a removed one's breaker
	 * leaves the registry.
	 * @param engine the engine that receives the breakers' transitions
	 * @param breakers the registry the breakers are created in
	 * @param timeLimiters the registry the time limiters are created in
	 * @param retries the registry the retries are created in
	 */
	public DependencyGuards(DegradationEngine engine, CircuitBreakerRegistry breakers,
			TimeLimiterRegistry timeLimiters, RetryRegistry retries) {
		this(engine, breakers, timeLimiters, retries, GuardExecutor.platformThreads(DEFAULT_MAX_THREADED_CALLS));
	}

	/**
	 * Create the guards of an engine's dependencies, with the executor for the calls that need a
	 * thread of their own.
	 * @param engine the engine that receives the breakers' transitions
	 * @param breakers the registry the breakers are created in
	 * @param timeLimiters the registry the time limiters are created in
	 * @param retries the registry the retries are created in
	 * @param executor the bounded executor of the calls whose client enforces no per-request
	 * timeout and of the calls made through {@link #call(String, Callable)}; closed with the
	 * guards
	 */
	public DependencyGuards(DegradationEngine engine, CircuitBreakerRegistry breakers,
			TimeLimiterRegistry timeLimiters, RetryRegistry retries, GuardExecutor executor) {
		this(engine, breakers, timeLimiters, retries, executor, DependencyGuard.Sleeper.THREAD);
	}

	/**
	 * Create the guards of an engine's dependencies, to be built in the supplied registries at
	 * their first use: the suppliers are asked once, then.
	 * @param engine the engine that receives the breakers' transitions
	 * @param breakers supplies the registry the breakers are created in
	 * @param timeLimiters supplies the registry the time limiters are created in
	 * @param retries supplies the registry the retries are created in
	 * @param executor the bounded executor of the calls that need a thread of their own; closed
	 * with the guards
	 */
	public DependencyGuards(DegradationEngine engine, Supplier<CircuitBreakerRegistry> breakers,
			Supplier<TimeLimiterRegistry> timeLimiters, Supplier<RetryRegistry> retries, GuardExecutor executor) {
		this(engine, breakers, timeLimiters, retries, executor, DependencyGuard.Sleeper.THREAD);
	}

	DependencyGuards(DegradationEngine engine, CircuitBreakerRegistry breakers, TimeLimiterRegistry timeLimiters,
			RetryRegistry retries, GuardExecutor executor, DependencyGuard.Sleeper sleeper) {
		this(engine, () -> breakers, () -> timeLimiters, () -> retries, executor, sleeper);
		guarding();
	}

	DependencyGuards(DegradationEngine engine, Supplier<CircuitBreakerRegistry> breakers,
			Supplier<TimeLimiterRegistry> timeLimiters, Supplier<RetryRegistry> retries, GuardExecutor executor,
			DependencyGuard.Sleeper sleeper) {
		this.engine = engine;
		this.breakerRegistry = breakers;
		this.timeLimiterRegistry = timeLimiters;
		this.retryRegistry = retries;
		this.executor = executor;
		this.sleeper = sleeper;
		// Rebuilt at once after a reload, not at the next call: the routes of a dependency whose
		// old breaker was open are shed, and would make no call that could rebuild them. Guards
		// not built yet have no breaker the engine could have heard of: nothing to compare.
		engine.addListener(new DegradationListener() {

			@Override
			public void manifestReplaced(ManifestReplaced replaced) {
				if (DependencyGuards.this.guarding == null) {
					return;
				}
				// Told once every signal follows the new manifest: the engine's evidence for each
				// dependency is now the one to compare the guards' breakers with.
				guarding().byName().forEach((name, guard) -> reportIfStale(name, guard.circuitBreaker()));
			}

		});
	}

	/**
	 * Return the guards of the engine's manifest, built at the first use and anew when the
	 * manifest was replaced: one volatile read and a comparison otherwise.
	 */
	private Guarding guarding() {
		Guarding current = this.guarding;
		// The state's manifest, not the engine's: the engine publishes its new manifest before
		// its signals have followed it, the state only once they have.
		DegradationManifest manifest = this.engine.state().manifest();
		return (current != null && current.manifest() == manifest) ? current : rebuild(manifest);
	}

	private Guarding rebuild(DegradationManifest manifest) {
		// A lock, not synchronized: a virtual thread that waits here does not pin its carrier.
		this.rebuilding.lock();
		try {
			Guarding current = this.guarding;
			if (current == null || current.manifest() != manifest) {
				current = build(manifest, (current != null) ? current.byName() : Map.of());
				this.guarding = current;
			}
			return current;
		}
		finally {
			this.rebuilding.unlock();
		}
	}

	/** Build the guards of a manifest; under the lock. */
	private Guarding build(DegradationManifest manifest, Map<String, DependencyGuard> previous) {
		Registries registries = this.registries;
		if (registries == null) {
			registries = new Registries(this.breakerRegistry.get(), this.timeLimiterRegistry.get(),
					this.retryRegistry.get());
			this.registries = registries;
		}
		Map<String, DependencyGuard> byName = new LinkedHashMap<>();
		List<Map.Entry<String, DependencyGuard>> byBaseUrl = new ArrayList<>();
		List<Map.Entry<String, DependencyGuard>> byService = new ArrayList<>();
		for (Dependency dependency : manifest.dependencies()) {
			DependencyGuard kept = previous.get(dependency.name());
			DependencyGuard guard = (kept != null && kept.dependency().calls().equals(dependency.calls()))
					? kept.of(dependency) : create(dependency, registries);
			byName.put(dependency.name(), guard);
			URI baseUrl = dependency.baseUrl();
			if (ServiceUrl.isServiceUrl(baseUrl)) {
				byService.add(Map.entry(servicePrefix(baseUrl), guard));
			}
			else if (baseUrl != null) {
				byBaseUrl.add(Map.entry(prefix(baseUrl), guard));
			}
		}
		for (String removed : previous.keySet()) {
			if (!byName.containsKey(removed) && this.created.remove(removed)) {
				registries.breakers().remove(removed);
				registries.timeLimiters().remove(removed);
				registries.retries().remove(removed);
			}
		}
		Comparator<Map.Entry<String, DependencyGuard>> longestFirst = Comparator
			.comparingInt((Map.Entry<String, DependencyGuard> entry) -> entry.getKey().length())
			.reversed();
		byBaseUrl.sort(longestFirst);
		byService.sort(longestFirst);
		return new Guarding(manifest, byName, byBaseUrl, byService);
	}

	private DependencyGuard create(Dependency dependency, Registries registries) {
		String name = dependency.name();
		// Ours from an earlier manifest, or the application's (Resilience4j's own properties).
		boolean ours = this.created.contains(name);
		CircuitBreakerConfig config = breakerConfig(dependency);
		CircuitBreaker breaker;
		if (registries.breakers().find(name).isPresent()) {
			if (!ours) {
				// Resilience4j's Boot integration creates every breaker of
				// 'resilience4j.circuitbreaker.instances' up front. The manifest says how the
				// dependency is guarded: a breaker that would never turn half-open by itself
				// would keep the dependency's routes shed for good.
				logger.warn("The circuit breaker '" + name + "' already in Resilience4j's registry (from "
						+ "resilience4j.circuitbreaker.instances." + name + "?) is replaced by the one the "
						+ "degradation manifest declares for dependency '" + name
						+ "'; write its settings under the dependency's 'breaker' in the manifest");
			}
			breaker = CircuitBreaker.of(name, config, registries.breakers().getTags());
			registries.breakers().replace(name, breaker);
		}
		else {
			breaker = registries.breakers().circuitBreaker(name, config);
		}
		this.created.add(name);
		// The calls the breaker judged since it last turned half-open: Resilience4j publishes a
		// call's outcome before its state judges it, so a close after half-open that its trials
		// made has seen them all; one with fewer was made by hand (a transition, a reset).
		AtomicInteger judged = new AtomicInteger();
		breaker.getEventPublisher()
			.onSuccess((event) -> judged.incrementAndGet())
			.onError((event) -> judged.incrementAndGet())
			.onStateTransition((event) -> {
				CircuitBreaker.StateTransition transition = event.getStateTransition();
				boolean byTrials = transition.getFromState() != CircuitBreaker.State.HALF_OPEN
						|| judged.get() >= config.getPermittedNumberOfCallsInHalfOpenState();
				if (transition.getToState() == CircuitBreaker.State.HALF_OPEN) {
					judged.set(0);
				}
				record(name, breaker, transition.getToState(), byTrials);
			});
		TimeLimiterConfig timeLimit = TimeLimiterConfig.custom().timeoutDuration(dependency.calls().timeout()).build();
		TimeLimiter timeLimiter;
		if (registries.timeLimiters().find(name).isPresent()) {
			if (!ours) {
				warnReplaced("time limiter", "resilience4j.timelimiter.instances." + name, name, "calls.timeout");
			}
			timeLimiter = TimeLimiter.of(name, timeLimit, registries.timeLimiters().getTags());
			registries.timeLimiters().replace(name, timeLimiter);
		}
		else {
			timeLimiter = registries.timeLimiters().timeLimiter(name, timeLimit);
		}
		RetryConfig retryConfig = GuardRetries.config(dependency.calls().retry());
		Retry retry;
		if (registries.retries().find(name).isPresent()) {
			if (!ours) {
				warnReplaced("retry", "resilience4j.retry.instances." + name, name, "calls.retry");
			}
			retry = Retry.of(name, retryConfig, registries.retries().getTags());
			registries.retries().replace(name, retry);
		}
		else {
			retry = registries.retries().retry(name, retryConfig);
		}
		return new DependencyGuard(dependency, breaker, timeLimiter, retry, this.executor, this.engine.clock(),
				this.sleeper);
	}

	/**
	 * Say that a guard the application declared under a dependency's name (through Resilience4j's
	 * properties, which its Boot integration creates up front) gives way to the manifest's: the
	 * application's settings would otherwise be dropped without a word.
	 */
	private static void warnReplaced(String kind, String property, String name, String manifestField) {
		logger.warn("The " + kind + " '" + name + "' already in Resilience4j's registry (from " + property
				+ "?) is replaced by the one the degradation manifest declares for dependency '" + name
				+ "'; write its settings under the dependency's '" + manifestField + "' in the manifest");
	}

	/**
	 * Tell the engine of a transition of the breaker that guards the dependency now. A breaker a
	 * reload replaced or removed is not heard: calls that began before the reload still finish on
	 * it, and Resilience4j still turns it half-open on time, but it guards nothing any more.
	 */
	private void record(String dependency, CircuitBreaker breaker, CircuitBreaker.State state, boolean byTrials) {
		Guarding guarding = this.guarding;
		DependencyGuard current = (guarding != null) ? guarding.byName().get(dependency) : null;
		if (current == null || current.circuitBreaker() != breaker) {
			return;
		}
		if (state == CircuitBreaker.State.DISABLED || state == CircuitBreaker.State.METRICS_ONLY
				|| (state == CircuitBreaker.State.CLOSED && !byTrials)) {
			// Turned off or closed by an operator: no call was judged, so leaving half-open so
			// is no trial that succeeded, and not the health a close after half-open is.
			turnedOff(dependency);
		}
		else {
			tell(dependency, state(state));
		}
	}

	private void turnedOff(String dependency) {
		try {
			this.engine.recordBreakerOff(dependency);
		}
		catch (NoSuchElementException ex) {
			// The engine's manifest no longer declares it (a reload in between): nothing to record.
		}
	}

	private void tell(String dependency, BreakerState state) {
		try {
			this.engine.recordBreaker(dependency, state);
		}
		catch (NoSuchElementException ex) {
			// The engine's manifest no longer declares it (a reload in between): nothing to record.
		}
	}

	/**
	 * After a reload the engine's idea of a breaker may differ from the guard's breaker: a kept
	 * breaker whose dependency's evidence the engine started anew (its health check changed), or
	 * a new breaker where the engine still remembers the old one open. The guard's breaker is
	 * the truth: tell the engine, so that it neither forgets an open breaker nor keeps routes shed
	 * for one that is gone.
	 */
	private void reportIfStale(String dependency, CircuitBreaker breaker) {
		BreakerState state = state(breaker.getState());
		try {
			if (this.engine.dependency(dependency).breaker() != state) {
				tell(dependency, state);
			}
		}
		catch (NoSuchElementException ex) {
			// Replaced again meanwhile: the next reload's listener compares anew.
		}
	}

	private static CircuitBreakerConfig breakerConfig(Dependency dependency) {
		BreakerPolicy policy = dependency.calls().breaker();
		return CircuitBreakerConfig.custom()
			.slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
			.slidingWindowSize(policy.windowSize())
			.minimumNumberOfCalls(Math.min(policy.minimumCalls(), policy.windowSize()))
			.failureRateThreshold((float) (policy.failureRateThreshold() * 100))
			.slowCallRateThreshold((float) (policy.slowCallRateThreshold() * 100))
			.slowCallDurationThreshold(policy.slowCallDuration())
			.waitDurationInOpenState(policy.open())
			.permittedNumberOfCallsInHalfOpenState(policy.halfOpenCalls())
			// Routes that require an open dependency are shed, so no call would ever make the
			// trial: the breaker moves to half-open by itself.
			.automaticTransitionFromOpenToHalfOpenEnabled(true)
			// Every client records an answer as a result (CircuitBreaker.onResult, or the breaker
			// operator's onNext): a failed answer (a 5xx) is counted as an error though it still
			// reaches its caller.
			.recordResult(JudgedAnswer::isFailure)
			// The caller's short deadline is no evidence about the dependency: its permission is
			// released, whichever client's attempt it ended.
			.ignoreException(CallerDeadlineExceededException.class::isInstance)
			.build();
	}

	private static BreakerState state(CircuitBreaker.State state) {
		return switch (state) {
			case OPEN, FORCED_OPEN -> BreakerState.OPEN;
			case HALF_OPEN -> BreakerState.HALF_OPEN;
			default -> BreakerState.CLOSED;
		};
	}

	/**
	 * Return the guard of a dependency.
	 * @param dependency the dependency's name
	 * @return the guard
	 * @throws NoSuchElementException if the manifest declares no such dependency
	 */
	public DependencyGuard guard(String dependency) {
		Map<String, DependencyGuard> guards = guarding().byName();
		DependencyGuard guard = guards.get(dependency);
		if (guard == null) {
			throw new NoSuchElementException("No dependency named '" + dependency + "'; declared: "
					+ String.join(", ", guards.keySet()));
		}
		return guard;
	}

	/**
	 * Call a dependency once under its guard: its breaker and its time limit (or the time left of
	 * the request's deadline). For code that is not a {@code RestClient} call, such as JDBC or an
	 * SDK.
	 * @param <T> the type of the answer
	 * @param dependency the dependency's name
	 * @param call the call
	 * @return its answer
	 * @throws DependencyUnavailableException if the breaker is open or the call times out or fails
	 */
	public <T> T call(String dependency, Callable<T> call) {
		return guard(dependency).call(call);
	}

	/**
	 * Return the guard of the dependency whose {@code base_url} a URL is under. A
	 * {@code base_url} that names a service by id ({@code lb://SERVICE-ID[/path]}) is called by
	 * every URL whose host is the service id, compared without case as Spring Cloud's discovery
	 * does, whatever its scheme ({@code http}, {@code https}, a gateway route's {@code lb}) and
	 * port: a {@code @LoadBalanced} client's {@code http://SERVICE-ID/...} before the load
	 * balancer chose an instance, or a gateway route's {@code lb://SERVICE-ID}. A
	 * {@code base_url} at one address wins over a service of the same name.
	 * @param url the URL called
	 * @return the guard, or {@code null} when no dependency is called there
	 */
	public @Nullable DependencyGuard forUrl(URI url) {
		Guarding guarding = guarding();
		if (!guarding.byBaseUrl().isEmpty()) {
			DependencyGuard guard = under(prefix(url), guarding.byBaseUrl());
			if (guard != null) {
				return guard;
			}
		}
		if (guarding.byService().isEmpty() || url.getHost() == null) {
			return null;
		}
		return under(servicePrefix(url), guarding.byService());
	}

	private static @Nullable DependencyGuard under(String called, List<Map.Entry<String, DependencyGuard>> bases) {
		for (Map.Entry<String, DependencyGuard> entry : bases) {
			String base = entry.getKey();
			if (called.startsWith(base) && (called.length() == base.length() || base.endsWith("/")
					|| called.charAt(base.length()) == '/')) {
				return entry.getValue();
			}
		}
		return null;
	}

	/**
	 * Return every guard, in manifest order.
	 * @return the guards
	 */
	public List<DependencyGuard> guards() {
		return List.copyOf(guarding().byName().values());
	}

	/**
	 * Return the executor of the calls that need a thread of their own.
	 * @return the executor
	 */
	public GuardExecutor executor() {
		return this.executor;
	}

	/**
	 * Stop the threads that run the calls.
	 */
	@Override
	public void close() {
		this.executor.close();
	}

	/** Scheme, host and port in lower case, with a default port, then the path. */
	private static String prefix(URI url) {
		String scheme = String.valueOf(url.getScheme()).toLowerCase(Locale.ROOT);
		int port = (url.getPort() != -1) ? url.getPort() : (scheme.equals("https") ? 443 : 80);
		String path = (url.getRawPath() != null) ? url.getRawPath() : "";
		return scheme + "://" + String.valueOf(url.getHost()).toLowerCase(Locale.ROOT) + ":" + port + path;
	}

	/** The host in lower case, then the path: what names a service and a part of it. */
	private static String servicePrefix(URI url) {
		String path = (url.getRawPath() != null) ? url.getRawPath() : "";
		return String.valueOf(url.getHost()).toLowerCase(Locale.ROOT) + path;
	}

	/**
	 * The Resilience4j registries the guards are created in.
	 */
	private record Registries(CircuitBreakerRegistry breakers, TimeLimiterRegistry timeLimiters,
			RetryRegistry retries) {

	}

	/**
	 * The guards of one manifest, by name, by base URL and by service (longest first, so that the
	 * most specific one wins).
	 */
	private record Guarding(DegradationManifest manifest, Map<String, DependencyGuard> byName,
			List<Map.Entry<String, DependencyGuard>> byBaseUrl, List<Map.Entry<String, DependencyGuard>> byService) {

	}

}

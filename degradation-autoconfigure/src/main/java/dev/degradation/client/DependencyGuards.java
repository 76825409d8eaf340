package dev.degradation.client;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.jspecify.annotations.Nullable;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.BreakerPolicy;
import dev.degradation.manifest.Dependency;
import dev.degradation.monitor.BreakerState;

/**
 * The guards of every dependency of the manifest, by name and by the URLs the application calls:
 * the API for code that calls a dependency ({@code guards.call("payments", () -> ...)}) and what
 * the {@code RestClient} interceptor looks calls up in. Builds each guard's breaker, time limiter
 * and retry in the given Resilience4j registries, named after the dependency, and reports every
 * transition of a breaker to the engine as evidence of the dependency's state.
 */
public final class DependencyGuards implements AutoCloseable {

	private static final AtomicInteger instances = new AtomicInteger();

	private final Map<String, DependencyGuard> guards = new LinkedHashMap<>();

	/** Guards with a base URL, longest first, so that the most specific one wins. */
	private final List<Map.Entry<String, DependencyGuard>> byBaseUrl = new ArrayList<>();

	private final ExecutorService executor;

	/**
	 * Create the guards of an engine's dependencies.
	 * @param engine the engine that receives the breakers' transitions
	 * @param breakers the registry the breakers are created in
	 * @param timeLimiters the registry the time limiters are created in
	 * @param retries the registry the retries are created in
	 */
	public DependencyGuards(DegradationEngine engine, CircuitBreakerRegistry breakers,
			TimeLimiterRegistry timeLimiters, RetryRegistry retries) {
		String prefix = "degradation-call-" + instances.incrementAndGet() + "-";
		AtomicInteger threads = new AtomicInteger();
		this.executor = Executors.newCachedThreadPool((task) -> {
			Thread thread = new Thread(task, prefix + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		Clock clock = engine.clock();
		for (Dependency dependency : engine.manifest().dependencies()) {
			CircuitBreaker breaker = breakers.circuitBreaker(dependency.name(), breakerConfig(dependency));
			breaker.getEventPublisher()
				.onStateTransition((event) -> engine.recordBreaker(dependency.name(),
						state(event.getStateTransition().getToState())));
			TimeLimiter timeLimiter = timeLimiters.timeLimiter(dependency.name(),
					TimeLimiterConfig.custom().timeoutDuration(dependency.calls().timeout()).build());
			Retry retry = retries.retry(dependency.name(), RetryConfig.custom()
				.maxAttempts(dependency.calls().retry().maxAttempts())
				.waitDuration(max(dependency.calls().retry().backoff(), Duration.ofMillis(1)))
				.build());
			DependencyGuard guard = new DependencyGuard(dependency, breaker, timeLimiter, retry, this.executor, clock);
			this.guards.put(dependency.name(), guard);
			if (dependency.baseUrl() != null) {
				this.byBaseUrl.add(Map.entry(prefix(dependency.baseUrl()), guard));
			}
		}
		this.byBaseUrl.sort(Comparator.comparingInt((Map.Entry<String, DependencyGuard> entry) -> entry.getKey()
			.length()).reversed());
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
		DependencyGuard guard = this.guards.get(dependency);
		if (guard == null) {
			throw new NoSuchElementException("No dependency named '" + dependency + "'; declared: "
					+ String.join(", ", this.guards.keySet()));
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
	 * Return the guard of the dependency whose {@code base_url} a URL is under.
	 * @param url the URL called
	 * @return the guard, or {@code null} when no dependency is called there
	 */
	public @Nullable DependencyGuard forUrl(URI url) {
		if (this.byBaseUrl.isEmpty()) {
			return null;
		}
		String called = prefix(url);
		for (Map.Entry<String, DependencyGuard> entry : this.byBaseUrl) {
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
		return List.copyOf(this.guards.values());
	}

	/**
	 * Stop the threads that run the calls.
	 */
	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/** Scheme, host and port in lower case, with a default port, then the path. */
	private static String prefix(URI url) {
		String scheme = String.valueOf(url.getScheme()).toLowerCase(Locale.ROOT);
		int port = (url.getPort() != -1) ? url.getPort() : (scheme.equals("https") ? 443 : 80);
		String path = (url.getRawPath() != null) ? url.getRawPath() : "";
		return scheme + "://" + String.valueOf(url.getHost()).toLowerCase(Locale.ROOT) + ":" + port + path;
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

}

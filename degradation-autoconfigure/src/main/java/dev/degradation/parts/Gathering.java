package dev.degradation.parts;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.degradation.engine.RequestSimulation;

/**
 * The optional parts of one answer, gathered in parallel. Each part runs within its budget and the
 * answer's deadline; a part that fails, is refused by the full executor, or runs out of time is
 * settled at once with its last good value (stale) or as unknown (missing), and a call still
 * running is interrupted. {@link #degradedParts()} names the parts that are not fresh, for
 * {@code X-Degraded-Parts}.
 */
public final class Gathering {

	/** The header that names the parts of an answer that are missing or stale. */
	public static final String HEADER = "X-Degraded-Parts";

	private final ExecutorService executor;

	private final PartOutcomes outcomes;

	private final Clock clock;

	private final long deadlineMillis;

	private final List<Part<?>> parts = new CopyOnWriteArrayList<>();

	Gathering(ExecutorService executor, PartOutcomes outcomes, Clock clock, long deadlineMillis) {
		this.executor = executor;
		this.outcomes = outcomes;
		this.clock = clock;
		this.deadlineMillis = deadlineMillis;
	}

	/**
	 * Start an optional part whose fallback is unknown ({@code null}).
	 * @param <T> the type of its value
	 * @param name its name in {@code X-Degraded-Parts}
	 * @param budget the longest it may take
	 * @param call the call that gets its value
	 * @return the part
	 */
	public <T> Part<T> optional(String name, Duration budget, Callable<T> call) {
		return start(name, budget, call, null, null);
	}

	/**
	 * Start an optional part whose fallback is its last good value for the key, if one is not
	 * older than the memory allows, and else unknown ({@code null}).
	 * @param <K> the type of the key
	 * @param <T> the type of its value
	 * @param name its name in {@code X-Degraded-Parts}
	 * @param budget the longest it may take
	 * @param call the call that gets its value
	 * @param lastGood where its good values are kept
	 * @param key the key of this value (a product id, say)
	 * @return the part
	 */
	public <K, T> Part<T> optional(String name, Duration budget, Callable<T> call, LastGood<K, T> lastGood, K key) {
		return start(name, budget, call, lastGood, key);
	}

	private <K, T> Part<T> start(String name, Duration budget, Callable<T> call, @Nullable LastGood<K, T> lastGood,
			@Nullable K key) {
		Objects.requireNonNull(name, "'name' must not be null");
		long budgetMillis = Math.min(budget.toMillis(), this.deadlineMillis - this.clock.millis());
		CompletableFuture<T> result = new CompletableFuture<>();
		// The simulation the request asked for itself goes with its parts, so that their guarded
		// calls follow it; a value gathered for a simulated request is never remembered as good.
		RequestSimulation simulation = RequestSimulation.current();
		if (budgetMillis <= 0) {
			result.completeExceptionally(new TimeoutException("No time left before the answer's deadline"));
		}
		else {
			try {
				Future<?> task = this.executor.submit(() -> {
					RequestSimulation.Held held = (simulation != null) ? RequestSimulation.hold(simulation) : null;
					try {
						result.complete(call.call());
					}
					catch (Throwable ex) {
						result.completeExceptionally(ex);
					}
					finally {
						if (held != null) {
							held.close();
						}
					}
				});
				result.orTimeout(budgetMillis, TimeUnit.MILLISECONDS).whenComplete((value, ex) -> {
					if (ex instanceof TimeoutException) {
						// Free the thread of a hanging call: its answer is no longer wanted.
						task.cancel(true);
					}
				});
			}
			catch (RejectedExecutionException ex) {
				result.completeExceptionally(ex);
			}
		}
		CompletableFuture<Part.Settled<T>> settled = result.handle((value, ex) -> {
			Part.Settled<T> outcome;
			if (ex == null) {
				if (lastGood != null && key != null && value != null && simulation == null) {
					lastGood.remember(key, value);
				}
				outcome = new Part.Settled<>(value, PartState.FRESH, null);
			}
			else {
				LastGood.Aged<T> aged = (lastGood != null && key != null) ? lastGood.recall(key) : null;
				outcome = (aged != null) ? new Part.Settled<>(aged.value(), PartState.STALE, aged.age())
						: new Part.Settled<>(null, PartState.MISSING, null);
			}
			this.outcomes.record(name, outcome.state());
			return outcome;
		});
		Part<T> part = new Part<>(name, settled);
		this.parts.add(part);
		return part;
	}

	/**
	 * Return the parts started so far, in the order they were started.
	 * @return the parts
	 */
	public List<Part<?>> parts() {
		return List.copyOf(this.parts);
	}

	/**
	 * Wait until every part is settled, and return the value of {@code X-Degraded-Parts}: the
	 * parts that are not fresh, comma-separated in the order they were started, a missing part as
	 * its name, a stale one as {@code name;stale;age=<seconds>}.
	 * @return the header's value, or {@code null} when every part is fresh
	 */
	public @Nullable String degradedParts() {
		String markers = this.parts.stream()
			.map(Part::marker)
			.filter(Objects::nonNull)
			.collect(Collectors.joining(", "));
		return markers.isEmpty() ? null : markers;
	}

}

package dev.degradation.engine;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many times each route of the manifest answered with its fallback, by the
 * {@link ShedSignal#kind() kind} of the signal that shed it. Counting is a {@link LongAdder}
 * increment, so that the request path neither locks nor allocates; metrics read the counts when
 * they are scraped.
 *
 * <p>The kinds of the engine's signals are known when the counts are made (the signals are fixed
 * per engine, a reload keeps them) and each has a cell per route, found by a scan of a few
 * strings. Any other kind (a shed decided outside the signals, such as admission's) gets its
 * cells on first use.
 */
public final class FallbackCounts {

	private final int routes;

	private final String[] kinds;

	private final LongAdder[] counts;

	private final Map<String, LongAdder[]> others = new ConcurrentHashMap<>();

	private final LongAdder[] requestSimulations;

	/**
	 * Create counts for the given number of routes, with no kind known in advance.
	 * @param routes the number of routes in the manifest
	 */
	public FallbackCounts(int routes) {
		this(routes, List.of());
	}

	/**
	 * Create counts for the given number of routes.
	 * @param routes the number of routes in the manifest
	 * @param kinds the kinds counted without a lookup, such as the kinds of the engine's signals;
	 * repeats are ignored
	 */
	public FallbackCounts(int routes, List<String> kinds) {
		this.routes = routes;
		this.kinds = new LinkedHashSet<>(kinds).toArray(String[]::new);
		this.counts = newCells(routes * this.kinds.length);
		this.requestSimulations = newCells(routes);
	}

	/**
	 * Record one fallback answer of a route that a request's own simulation shed
	 * ({@link RequestSimulation}): counted apart from the instance's shedding, so that a test in a
	 * shared environment never reads as the service degrading.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 */
	public void recordRequestSimulation(int route) {
		this.requestSimulations[route].increment();
	}

	/**
	 * Return how many fallback answers a route gave because a request simulated for itself.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @return the count since start
	 */
	public long requestSimulations(int route) {
		return this.requestSimulations[route].sum();
	}

	/**
	 * Record one fallback answer.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @param kind the kind of signal that shed the route
	 */
	public void record(int route, String kind) {
		int known = known(kind);
		if (known >= 0) {
			this.counts[route * this.kinds.length + known].increment();
		}
		else {
			LongAdder[] cells = this.others.get(kind);
			if (cells == null) {
				cells = this.others.computeIfAbsent(kind, (key) -> newCells(this.routes));
			}
			cells[route].increment();
		}
	}

	/**
	 * Return the kinds counted so far or known in advance, the known ones first.
	 * @return the kinds
	 */
	public List<String> kinds() {
		Set<String> all = new LinkedHashSet<>(List.of(this.kinds));
		all.addAll(this.others.keySet());
		return new ArrayList<>(all);
	}

	/**
	 * Return how many fallback answers a route gave, whatever the cause.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @return the count since start
	 */
	public long count(int route) {
		long total = 0;
		for (String kind : this.kinds) {
			total += count(route, kind);
		}
		for (LongAdder[] cells : this.others.values()) {
			total += cells[route].sum();
		}
		return total + this.requestSimulations[route].sum();
	}

	/**
	 * Return how many fallback answers a route gave for one kind of signal.
	 * @param route the index of the route in {@code DegradationManifest.routes()}
	 * @param kind the kind
	 * @return the count since start
	 */
	public long count(int route, String kind) {
		int known = known(kind);
		if (known >= 0) {
			return this.counts[route * this.kinds.length + known].sum();
		}
		LongAdder[] cells = this.others.get(kind);
		return (cells != null) ? cells[route].sum() : 0;
	}

	private int known(String kind) {
		for (int i = 0; i < this.kinds.length; i++) {
			// The signals' own constants: an identity check finds them without comparing text.
			if (this.kinds[i] == kind || this.kinds[i].equals(kind)) {
				return i;
			}
		}
		return -1;
	}

	private static LongAdder[] newCells(int size) {
		LongAdder[] cells = new LongAdder[size];
		for (int i = 0; i < size; i++) {
			cells[i] = new LongAdder();
		}
		return cells;
	}

}

package dev.degradation.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Overload;
import dev.degradation.manifest.Tier;
import dev.degradation.overload.Admission;
import dev.degradation.overload.PassedPriority;

/**
 * The overload signal: while admission is saturated (every place taken or a request waiting for
 * one, now or at any moment since the last evaluation: {@link Admission#saturations()}), it raises
 * the shed level one tier at a time, so that the
 * lowest tiers are shed before they reach admission and operators see the overload in the level;
 * it lowers the level one tier per hysteresis once admission has room again. It owns the
 * {@link Admission} of the current manifest ({@code null} without an {@code overload} section).
 * One log line when overload starts and one when it ends.
 *
 * <p>What request threads read of it ({@link #active()}) is one immutable snapshot, replaced
 * whole when the manifest changes; time is the engine's clock.
 */
public final class OverloadSignal implements ShedSignal {

	/** The kind of this signal, the first part of its causes. */
	public static final String KIND = "overload";

	/** The name of this signal. */
	public static final String NAME = "overload";

	/** The cause of the routes the overload level sheds. */
	public static final String CAUSE = "overload";

	/** The window of the {@link #rates() rates}. */
	public static final Duration RATE_WINDOW = Duration.ofSeconds(10);

	private static final Log logger = LogFactory.getLog(OverloadSignal.class);

	private final LongSupplier nanoTime;

	private final Clock clock;

	private volatile @Nullable Active active;

	private @Nullable Overload overload;

	private List<Integer> priorities = List.of();

	private @Nullable LevelHysteresis level;

	private long lastSaturations;

	private volatile Rates rates = Rates.NONE;

	/** What admission had counted at each evaluation of the rates' window, oldest first. */
	private final Deque<Counts> window = new ArrayDeque<>();

	/**
	 * Create the signal of a manifest.
	 * @param manifest the manifest, whose {@code overload} section configures admission
	 * @param nanoTime the clock of latencies and waits, {@code System::nanoTime} outside tests
	 * @param clock the engine's clock, which times the level's steps
	 */
	public OverloadSignal(DegradationManifest manifest, LongSupplier nanoTime, Clock clock) {
		this.nanoTime = nanoTime;
		this.clock = clock;
		configure(manifest, clock.instant());
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String kind() {
		return KIND;
	}

	/**
	 * Return what admission is under the current manifest; read once per request.
	 * @return the snapshot, or {@code null} when the manifest has no {@code overload} section
	 */
	public @Nullable Active active() {
		return this.active;
	}

	/**
	 * Return the admission of the current manifest.
	 * @return the admission, or {@code null} when the manifest has no {@code overload} section
	 */
	public @Nullable Admission admission() {
		Active active = this.active;
		return (active != null) ? active.admission() : null;
	}

	/**
	 * Return the rank of a degradable route's tier for {@link Admission#decide}: its place among the
	 * manifest's distinct priorities, lowest first.
	 * @param priority the tier's priority
	 * @return the rank
	 */
	public int rank(int priority) {
		Active active = this.active;
		return (active != null) ? active.rank(priority) : 0;
	}

	/**
	 * Return what admission did per second over the last {@link #RATE_WINDOW} (less just after
	 * start or a new manifest: since then).
	 * @return the rates
	 */
	public Rates rates() {
		return this.rates;
	}

	/**
	 * Admission under load, as {@code overload}, while the manifest has an {@code overload}
	 * section: the limit, what is in flight and waiting, what admission did per second and since
	 * start, and the level this signal demands.
	 */
	@Override
	public Map<String, Object> sections(DegradationState state) {
		Admission admission = admission();
		if (admission == null) {
			return Map.of();
		}
		Rates rates = rates();
		Map<String, Object> overload = new LinkedHashMap<>();
		overload.put("limit", admission.limit());
		overload.put("inflight", admission.inflight());
		overload.put("waiting", admission.waiting());
		overload.put("admittedPerSecond", Math.round(rates.admitted() * 10) / 10.0);
		overload.put("shedPerSecond", Math.round(rates.shed() * 10) / 10.0);
		overload.put("refusedPerSecond", Math.round(rates.refused() * 10) / 10.0);
		overload.put("admitted", admission.admitted());
		overload.put("shed", admission.shed());
		overload.put("refused", admission.refused() + admission.refusedForDeadline());
		overload.put("level", state.demands().getOrDefault(NAME, ShedDemand.NONE).level());
		return Map.of(NAME, overload);
	}

	@Override
	public synchronized ShedDemand demand(Instant now) {
		Admission admission = admission();
		LevelHysteresis level = this.level;
		if (admission == null || level == null) {
			return ShedDemand.NONE;
		}
		measure(admission, now);
		long saturations = admission.saturations();
		boolean saturated = saturations > this.lastSaturations || admission.saturated();
		this.lastSaturations = saturations;
		int before = level.level();
		int required = saturated ? nextStep(before) : 0;
		level.follow(Math.max(required, saturated ? before : 0), now,
				"admission saturated (limit " + admission.limit() + ", " + admission.inflight() + " in flight, "
						+ admission.waiting() + " waiting)");
		int after = level.level();
		if (before == 0 && after > 0) {
			logger.info("Overload started: admission saturated at a limit of " + admission.limit()
					+ "; shed level raised to " + after);
		}
		else if (before > 0 && after == 0) {
			logger.info("Overload ended: admission has room again; the overload level is back to 0");
		}
		return (after == 0) ? ShedDemand.NONE : ShedDemand.level(after, CAUSE, level.reason());
	}

	private int nextStep(int current) {
		for (int priority : this.priorities) {
			if (priority > current) {
				return priority;
			}
		}
		return current;
	}

	private void measure(Admission admission, Instant now) {
		Counts counts = new Counts(now, admission.admitted(), admission.shed(),
				admission.refused() + admission.refusedForDeadline());
		Instant start = now.minus(RATE_WINDOW);
		// The oldest sample kept is the last one at or before the window's start, so that the rates
		// span the whole window once it has passed.
		while (this.window.size() > 1) {
			Iterator<Counts> oldest = this.window.iterator();
			oldest.next();
			if (oldest.next().at().isAfter(start)) {
				break;
			}
			this.window.removeFirst();
		}
		Counts first = this.window.peekFirst();
		if (first != null && now.isAfter(first.at())) {
			double seconds = Duration.between(first.at(), now).toNanos() / 1e9;
			this.rates = new Rates((counts.admitted() - first.admitted()) / seconds,
					(counts.shed() - first.shed()) / seconds, (counts.refused() - first.refused()) / seconds);
		}
		this.window.addLast(counts);
	}

	@Override
	public synchronized void reset() {
		if (this.level != null) {
			this.level.reset(this.clock.instant());
		}
		Admission admission = admission();
		this.lastSaturations = (admission != null) ? admission.saturations() : 0;
	}

	/**
	 * A reload keeps the admission (its limit and the requests in flight) when the section and the
	 * tier priorities are unchanged; otherwise admission starts again from the new
	 * manifest.
	 */
	@Override
	public synchronized void manifestChanged(DegradationManifest manifest) {
		configure(manifest, this.clock.instant());
	}

	private void configure(DegradationManifest manifest, Instant now) {
		Overload overload = manifest.overload();
		TreeSet<Integer> priorities = new TreeSet<>();
		for (Tier tier : manifest.tiers()) {
			priorities.add(tier.priority());
		}
		List<Integer> previousPriorities = this.priorities;
		this.priorities = List.copyOf(new ArrayList<>(priorities));
		if (overload == null) {
			this.active = null;
			this.level = null;
		}
		else if (!overload.equals(this.overload) || this.active == null
				|| !previousPriorities.equals(this.priorities)) {
			// A new section, or other tiers: the ranks and the level's steps follow the manifest.
			Admission admission = new Admission(overload, this.priorities.size(), this.nanoTime);
			this.active = new Active(admission, this.priorities.stream().mapToInt(Integer::intValue).toArray(),
					Long.toString(overload.retryAfter().toSeconds()), overload.refusalStatus());
			this.level = new LevelHysteresis(this.priorities, overload.hysteresis(), now,
					"admission has room again");
			this.lastSaturations = 0;
			this.window.clear();
			this.rates = Rates.NONE;
		}
		this.overload = overload;
	}

	/**
	 * Admission under one manifest, as a request reads it: the admission, the ranks of the tiers,
	 * and what a refused request is answered.
	 *
	 * @param admission the admission
	 * @param priorities the manifest's distinct tier priorities, lowest first
	 * @param retryAfterHeader the {@code Retry-After} of a refused request, in seconds
	 * @param refusalStatus the status of a refused request ({@code 503} or {@code 429})
	 */
	public record Active(Admission admission, int[] priorities, String retryAfterHeader, int refusalStatus) {

		/**
		 * Return the {@code Retry-After} of a refused request as a number.
		 * @return the seconds
		 */
		public long retryAfterSeconds() {
			return Long.parseLong(this.retryAfterHeader);
		}

		/**
		 * Return the rank of a degradable route's tier: its place among the manifest's distinct
		 * priorities, lowest first.
		 * @param priority the tier's priority
		 * @return the rank
		 */
		public int rank(int priority) {
			for (int rank = 0; rank < this.priorities.length; rank++) {
				if (this.priorities[rank] == priority) {
					return rank;
				}
			}
			return this.priorities.length;
		}

		/**
		 * Return a request's rank lowered by the priority its caller passed
		 * ({@link PassedPriority}), never raised: the passed priority ranks as the highest of this
		 * manifest's tiers at or below it (the lowest rank when it is below them all), and a core
		 * one changes nothing.
		 * @param rank the rank of the request's route, {@link Admission#coreRank()} for a core
		 * route
		 * @param passedPriority the priority its caller passed, as {@link PassedPriority#read}
		 * reads it
		 * @return the lower of the two ranks
		 */
		public int lowered(int rank, int passedPriority) {
			if (passedPriority == PassedPriority.CORE) {
				return rank;
			}
			int passedRank = 0;
			while (passedRank + 1 < this.priorities.length && this.priorities[passedRank + 1] <= passedPriority) {
				passedRank++;
			}
			return Math.min(rank, passedRank);
		}

	}

	/**
	 * What admission had counted at an evaluation.
	 */
	private record Counts(Instant at, long admitted, long shed, long refused) {

	}

	/**
	 * What admission did per second, over the last {@link #RATE_WINDOW}.
	 *
	 * @param admitted requests admitted per second
	 * @param shed degradable requests answered with their fallback per second
	 * @param refused requests refused (503 or 429) per second, those whose caller's deadline had
	 * passed among them
	 */
	public record Rates(double admitted, double shed, double refused) {

		static final Rates NONE = new Rates(0, 0, 0);

	}

}

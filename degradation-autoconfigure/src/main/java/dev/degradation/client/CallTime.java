package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.CallBudget;

/**
 * The deadline arithmetic of one dependency's guarded calls: when a call must end (its time limit,
 * or its retry budget, at the latest at the request's deadline, less a reserve for the caller's
 * answer), the time left, whether a retry's wait may begin, and whether a time-out was the
 * caller's doing. One place for it, so that every client the guard serves (a {@code RestClient},
 * a {@code WebClient}, code through the API) ends its calls at the same instant.
 */
final class CallTime {

	private static final Duration MAX_ANSWER_RESERVE = Duration.ofMillis(20);

	private final CallBudget budget;

	private final Clock clock;

	CallTime(CallBudget budget, Clock clock) {
		this.budget = budget;
		this.clock = clock;
	}

	/**
	 * Return when a call beginning now must have its answer: after its time limit, or its retry
	 * budget when it is retried, at the latest at the request's deadline, less the reserve for the
	 * caller's own answer.
	 * @param retried whether the call's method is retried
	 * @param deadline the request's deadline, or {@code null}
	 */
	CallEnd end(boolean retried, @Nullable Instant deadline) {
		Instant start = this.clock.instant();
		Instant end = start.plus(retried ? this.budget.retry().budget() : this.budget.timeout());
		boolean callers = deadline != null && deadline.isBefore(end);
		if (callers) {
			end = deadline;
		}
		if (end.isAfter(start)) {
			end = end.minus(answerReserve(Duration.between(start, end)));
		}
		return new CallEnd(end, callers);
	}

	/**
	 * Return the time an attempt may take: the dependency's time limit, or the time left when
	 * that is shorter.
	 * @param left the time left of the call
	 */
	Duration attemptLimit(Duration left) {
		Duration timeout = this.budget.timeout();
		return (timeout.compareTo(left) <= 0) ? timeout : left;
	}

	/**
	 * Return whether an attempt that timed out with a limit was cut short by its caller: the
	 * request's deadline ends the call, and left the attempt less than the dependency's time
	 * limit. Such a time-out says nothing of the dependency, which was not given its time.
	 * @param end the call's end
	 * @param limit the attempt's time limit
	 */
	boolean cutShortByCaller(CallEnd end, Duration limit) {
		return end.callers() && limit.compareTo(this.budget.timeout()) < 0;
	}

	/**
	 * Return the time left until a call's {@linkplain #end end}: zero or less when it has passed.
	 */
	Duration timeLeft(Instant end) {
		return Duration.between(this.clock.instant(), end);
	}

	/**
	 * Return whether a wait the retry asked for may begin: it asked for one (not a negative
	 * number), and it would end before the call's {@linkplain #end end}.
	 * @param wait the wait in milliseconds, negative for no further attempt
	 */
	boolean mayWait(long wait, Instant end) {
		return wait >= 0 && this.clock.instant().plusMillis(wait).isBefore(end);
	}

	/**
	 * The part of a call's time kept for the answer the caller still has to give once the call
	 * gave up (its fallback, its error): 2 % of it, at most 20 ms. Without it a call that times
	 * out made its caller's answer overrun the declared timeout by that much.
	 */
	static Duration answerReserve(Duration total) {
		Duration share = total.dividedBy(50);
		return (share.compareTo(MAX_ANSWER_RESERVE) <= 0) ? share : MAX_ANSWER_RESERVE;
	}

	/**
	 * When a call must have its answer.
	 *
	 * @param at the instant
	 * @param callers whether the request's deadline set it, before the dependency's own time
	 * limit or budget would have
	 */
	record CallEnd(Instant at, boolean callers) {

	}

}

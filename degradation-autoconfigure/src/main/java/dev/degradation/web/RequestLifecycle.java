package dev.degradation.web;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.degradation.engine.RequestSimulation;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.RequestPriority;

/**
 * One request's way through the starter, written once for every web stack: the body read before
 * admission when that is the rule, the decision, a wait for a place, the fallback or refusal
 * written in turn with the other cheap answers, the request let through, the fallback after a
 * guarded call that got no answer, and the end that tells admission what it may learn.
 *
 * <p>Each stack's adapter creates one for each request and implements only the stack's
 * primitives (read the body, wait, write an answer, let the request go on), in the stack's own
 * types: {@code R} is what a step returns (nothing on the servlet stack, a {@code Mono} on the
 * reactive one) and {@code X} what it may throw. A step that waits takes what follows it as a
 * {@link Step}, which a blocking stack calls at once and a reactive one when the wait ends, so
 * that the order of the steps exists here alone. As Sentinel's reactor transformer and
 * concurrency-limits' servlet filter do, the object owns the request's place in admission from its
 * decision to its one end.
 *
 * @param <R> what a step returns on the stack
 * @param <X> what a step may throw on the stack
 */
public abstract class RequestLifecycle<R, X extends Exception> {

	/**
	 * The most of a body nobody will use that the starter reads and lets go, after a cheap answer
	 * or a refused write to the endpoint; past it the server does with the rest what it does
	 * (Tomcat swallows up to its own bound, Jetty resets the connection).
	 */
	public static final long UNREAD_BODY_BYTES = 1024 * 1024;

	/** The longest such a body is waited for. */
	public static final Duration UNREAD_BODY_TIME = Duration.ofSeconds(1);

	private static final Runnable NOTHING_HELD = () -> {
	};

	private final RequestDecider decider;

	private final boolean levelOnEveryAnswer;

	private Decision.@Nullable Proceed proceeded;

	/** Whether the starter answered instead of the application: no sample of the service. */
	private boolean answered;

	/**
	 * Create the lifecycle of one request.
	 * @param decider the request decision
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too
	 */
	protected RequestLifecycle(RequestDecider decider, boolean levelOnEveryAnswer) {
		this.decider = decider;
		this.levelOnEveryAnswer = levelOnEveryAnswer;
	}

	/**
	 * What follows a step that may wait.
	 *
	 * @param <T> what the wait gives
	 * @param <R> what a step returns on the stack
	 * @param <X> what a step may throw on the stack
	 */
	@FunctionalInterface
	public interface Step<T, R, X extends Exception> {

		/**
		 * Go on after the wait.
		 * @param value what the wait gave
		 * @return what the step returns
		 * @throws X what the stack may throw
		 */
		R then(T value) throws X;

	}

	/**
	 * A step the stack runs when it is ready to.
	 *
	 * @param <R> what a step returns on the stack
	 * @param <X> what a step may throw on the stack
	 */
	@FunctionalInterface
	public interface Action<R, X extends Exception> {

		/**
		 * Run the step.
		 * @return what the step returns
		 * @throws X what the stack may throw
		 */
		R run() throws X;

	}

	/**
	 * Carry the request through, from its decision to the answer or the application.
	 * @return what the stack returns for the request
	 * @throws X what the stack may throw
	 */
	public final R run() throws X {
		// A healthy service's request is let through without reading it.
		Decision.Proceed unlooked = this.decider.withoutLookup();
		if (unlooked != null) {
			return proceed(unlooked);
		}
		RequestView view = view();
		if (this.decider.readsBodyFirst(view, contentLength(), contentType())) {
			// A body that arrives slowly holds a thread or a buffer, never a place in admission; the
			// time it took is time its caller waited, taken off the caller's deadline.
			long start = System.nanoTime();
			return readBodyFirst(this.decider.bodyTimeoutNanos(view),
					(arrived) -> arrived ? decide(System.nanoTime() - start) : write(this.decider.bodyTooSlow()));
		}
		return decide(0);
	}

	private R decide(long waitedNanos) throws X {
		Decision decision;
		try {
			decision = this.decider.decide(view(), waitedNanos);
		}
		finally {
			viewRead();
		}
		if (decision instanceof Decision.Wait wait) {
			return await(wait, (admitted) -> carryOut(this.decider.afterWait(wait, admitted)));
		}
		return carryOut(decision);
	}

	private R carryOut(Decision decision) throws X {
		if (decision instanceof Decision.Proceed proceed) {
			return proceed(proceed);
		}
		Decision.Answered answered = (Decision.Answered) decision;
		CheapAnswerTurns turns = this.decider.cheapAnswerTurns();
		if (!answered.small() || !turns.taken(this.decider.serving()) || !refusalInTurn(answered)) {
			return answer(answered, null);
		}
		// Written in turn with the other cheap answers while admitted work is served, and sent
		// before the turn is given back; a fallback too large to be sure of its send buffer takes
		// no turn, so that a slow reader cannot hold one; a refusal takes one only when its caller
		// came back before its Retry-After. The wait is the turns' own bound, whatever deadline the
		// caller sent: the turns ration the callers that flood, and a deadline is theirs to set (one
		// already passed would otherwise take every answer of a flood out of the line).
		return takeTurn(turns, (taken) -> {
			if (!taken) {
				return answer(answered, null);
			}
			long since = System.nanoTime();
			return answer(answered, () -> turns.leave(since));
		});
	}

	private boolean refusalInTurn(Decision.Answered answered) {
		return !(answered instanceof Decision.Refuse refuse) || this.decider.refusedCallers()
			.inTurn(view().callerAddress(), refuse.overload().retryAfterSeconds(), System.nanoTime());
	}

	private R proceed(Decision.Proceed proceed) throws X {
		this.proceeded = proceed;
		if (this.levelOnEveryAnswer) {
			header(DegradationHeaders.LEVEL, proceed.state().levelHeader());
		}
		StaleAnswers.RouteCopies copies = (proceed.route() != null) ? proceed.copies(view().method()) : null;
		Admitted admitted = proceed.admitted();
		long bodyTimeLimitNanos = (admitted != null) ? this.decider.bodyTimeLimitNanos(proceed) : -1;
		if (copies == null) {
			return pass(admitted, bodyTimeLimitNanos, null, null);
		}
		return principalKnown(() -> {
			// Credentials or cookies the route does not vary by make an answer one user's: no copy.
			String copyKey = copies.key(view());
			return pass(admitted, bodyTimeLimitNanos, (copyKey != null) ? copies : null, copyKey);
		}, () -> ended(true, 500));
	}

	/**
	 * Answer with the route's fallback when the application failed because a guarded call to a
	 * dependency the route requires got no answer, and nothing of its answer was sent; the
	 * request's observation still records the failure.
	 * @param failure what the application failed with
	 * @param otherwise what the stack does with a failure that is the application's
	 * @return the fallback written, or what {@code otherwise} returns
	 * @throws X what the stack may throw
	 */
	protected final R fallBack(Throwable failure, Step<Throwable, R, X> otherwise) throws X {
		Decision.Proceed proceeded = this.proceeded;
		if (proceeded == null || answerStarted()) {
			return otherwise.then(failure);
		}
		Decision.Shed fallback;
		try {
			fallback = this.decider.afterFailure(proceeded, view(), failure);
		}
		finally {
			viewRead();
		}
		if (fallback == null) {
			return otherwise.then(failure);
		}
		observeFailure(failure);
		replaceAnswer();
		return answer(fallback, null);
	}

	/**
	 * Tell admission how the request let through ended; a request that was not admitted ends
	 * with nothing to tell.
	 * @param failed whether the application failed (an exception, or a client that left)
	 * @param status the answer's status
	 */
	protected final void ended(boolean failed, int status) {
		Decision.Proceed proceeded = this.proceeded;
		if (proceeded != null) {
			this.decider.end(proceeded, failed, status, this.answered, handledPattern());
		}
	}

	/**
	 * Return the pattern of the handler the stack chose for the request, or the route it was
	 * handled by ({@link RequestDecider#HANDLED_ROUTE_ATTRIBUTE}), read once it ended: the kind by
	 * which admission's limit tells requests of different service times apart.
	 * @return the pattern or route, or {@code null} when neither is known
	 */
	protected @Nullable String handledPattern() {
		return null;
	}

	/**
	 * Return how long an admitted request's answer may wait, in all, for its caller before its
	 * place is given back ({@link RequestDecider#answerWaitLimitNanos}).
	 * @return the bound, in nanoseconds
	 */
	protected final long answerWaitLimitNanos() {
		return this.decider.answerWaitLimitNanos();
	}

	/**
	 * Tell admission that the server gave the request up (the time-out of an asynchronous
	 * request, the service's own setting): a loss.
	 */
	protected final void dropped() {
		Decision.Proceed proceeded = this.proceeded;
		if (proceeded != null) {
			proceeded.dropped();
		}
	}

	/**
	 * Return whether the request let through holds a place in admission, which it gives back
	 * when it {@link #ended ends}.
	 * @return whether it was admitted
	 */
	protected final boolean admitted() {
		Decision.Proceed proceeded = this.proceeded;
		return proceeded != null && proceeded.admitted() != null;
	}

	/**
	 * Hold what the guarded calls made for the request follow (the priority it is served at, the
	 * simulation it asked for itself) on this thread, for a stack that serves a request on one
	 * thread.
	 * @return what lets them go, once the request was served
	 */
	protected final Runnable holdForCalls() {
		Decision.Proceed proceeded = this.proceeded;
		if (proceeded == null || (!proceeded.passesPriority() && proceeded.simulation() == null)) {
			return NOTHING_HELD;
		}
		RequestPriority.Held priority = proceeded.passesPriority() ? RequestPriority.hold(proceeded.priority()) : null;
		RequestSimulation simulation = proceeded.simulation();
		RequestSimulation.Held simulated = (simulation != null) ? RequestSimulation.hold(simulation) : null;
		return () -> {
			if (priority != null) {
				priority.close();
			}
			if (simulated != null) {
				simulated.close();
			}
		};
	}

	/**
	 * Return what the guarded calls made for the request follow, by the keys of a reactive
	 * context ({@link RequestPriority#KEY}, {@link RequestSimulation#KEY}), for a stack that
	 * serves a request on several threads.
	 * @return the values by key, empty when the calls follow nothing of the request
	 */
	protected final Map<Object, Object> callContext() {
		Decision.Proceed proceeded = this.proceeded;
		if (proceeded == null || (!proceeded.passesPriority() && proceeded.simulation() == null)) {
			return Map.of();
		}
		Map<Object, Object> context = new HashMap<>(4);
		if (proceeded.passesPriority()) {
			context.put(RequestPriority.KEY, proceeded.priority());
		}
		RequestSimulation simulation = proceeded.simulation();
		if (simulation != null) {
			context.put(RequestSimulation.KEY, simulation);
		}
		return context;
	}

	/**
	 * Write an answer the starter prepared, in a turn taken when {@code giveBackTurn} is given.
	 */
	private R answer(Decision.Answered answered, @Nullable Runnable giveBackTurn) throws X {
		this.answered = true;
		answering(answered.cause(), answered.pathPattern());
		// A request let through and failed may have read its body; one answered in its stead has
		// not, and what still arrives of it is let go so that the answer reaches its caller. The
		// turn is given back once the answer is sent, before that: a slow body must hold no turn.
		boolean instead = this.proceeded == null;
		Action<R, X> send = () -> {
			Action<R, X> write = () -> write(answered.answer(view()));
			R written = (giveBackTurn != null) ? sendInTurn(write, giveBackTurn) : write.run();
			return instead ? lettingBodyGo(written) : written;
		};
		if (answered.servesCopies()) {
			// A place held here is a failed request's, which the step that let it through ends; a
			// turn taken is given back if the request is abandoned before its answer.
			return principalKnown(send, (giveBackTurn != null) ? giveBackTurn : NOTHING_HELD);
		}
		return send.run();
	}

	/**
	 * Return the request as the decision reads it; called only when the decision needs it, and the
	 * same until the stack replaces its request.
	 * @return the view
	 */
	protected abstract RequestView view();

	/**
	 * Called once the decision has read what it needed of the {@link #view()}, for a stack that
	 * keeps what it parsed on its request only while it is read.
	 */
	protected void viewRead() {
	}

	/**
	 * Return the request body's declared length.
	 * @return the length, {@code -1} when not declared
	 */
	protected abstract long contentLength();

	/**
	 * Return the request body's content type.
	 * @return the content type, or {@code null}
	 */
	protected abstract @Nullable String contentType();

	/**
	 * Read the whole body, of its declared length, before the request is decided, within a bound;
	 * then go on with the request whose body has arrived as the {@link #view()}.
	 * @param timeoutNanos the bound
	 * @param then what follows, told whether the body arrived in time
	 * @return what the step returns
	 * @throws X what the stack may throw
	 */
	protected abstract R readBodyFirst(long timeoutNanos, Step<Boolean, R, X> then) throws X;

	/**
	 * Wait for a place in admission, at most {@link Decision.Wait#waitNanos()}, then go on.
	 * @param wait the decision to wait
	 * @param then what follows, given the place or {@code null} when none freed in time
	 * @return what the step returns
	 * @throws X what the stack may throw
	 */
	protected abstract R await(Decision.Wait wait, Step<@Nullable Admitted, R, X> then) throws X;

	/**
	 * Wait for a turn to write a cheap answer ({@link CheapAnswerTurns#enter()} on a thread that
	 * may park, {@link CheapAnswerTurns#enterLater()} otherwise), then go on.
	 * @param turns the turns
	 * @param then what follows, told whether a turn was taken
	 * @return what the step returns
	 * @throws X what the stack may throw
	 */
	protected abstract R takeTurn(CheapAnswerTurns turns, Step<Boolean, R, X> then) throws X;

	/**
	 * Write an answer in a turn taken, and give the turn back once the answer is sent, whether or
	 * not sending it succeeded.
	 * @param answer the answer's write
	 * @param giveBack what gives the turn back
	 * @return what the step returns
	 * @throws X what the stack may throw
	 */
	protected abstract R sendInTurn(Action<R, X> answer, Runnable giveBack) throws X;

	/**
	 * Make the request's {@link RequestView#principal() principal} known to its view, then go on:
	 * called only for a request whose answer a {@code stale} route copies or serves from its
	 * copies, so that no other request pays for it. A stack whose request knows its principal
	 * goes on at once; one that must look it up (a reactive security context) does so without
	 * blocking, and runs {@code abandoned} when the request ends before it went on (the look-up
	 * failed, or the client left while it ran).
	 * @param then what follows
	 * @param abandoned what ends a request that did not go on
	 * @return what the step returns
	 * @throws X what the stack may throw
	 */
	protected R principalKnown(Action<R, X> then, Runnable abandoned) throws X {
		return then.run();
	}

	/**
	 * Set a header of the answer, before the request goes on.
	 * @param name the header's name
	 * @param value its value
	 */
	protected abstract void header(String name, String value);

	/**
	 * Let the request go on to the application, with the bounds of the lifecycle: its body must
	 * arrive within a bound of its admission, its answer may be copied for a {@code stale} route,
	 * its priority and simulation follow the guarded calls made for it, a failure goes to
	 * {@link #fallBack}, and its end to {@link #ended} (or {@link #dropped}) when
	 * {@link #admitted()}.
	 * @param admitted the request's place in admission, or {@code null} when it holds none
	 * @param bodyTimeLimitNanos how long after its admission the body may still be arriving, or
	 * {@code -1} when the request holds no place
	 * @param copies the copies its answer is offered to, or {@code null}
	 * @param copyKey the key of its answer among the copies, or {@code null}
	 * @return what the step returns
	 * @throws X what the stack may throw
	 */
	protected abstract R pass(@Nullable Admitted admitted, long bodyTimeLimitNanos, StaleAnswers.@Nullable RouteCopies copies,
			@Nullable String copyKey) throws X;

	/**
	 * Return whether anything of the answer was sent, or the application went on asynchronously:
	 * no fallback can replace it then.
	 * @return whether the answer is the application's
	 */
	protected abstract boolean answerStarted();

	/**
	 * Record in the request's observation what the application failed with, though the answer is
	 * a good one.
	 * @param failure the failure
	 */
	protected abstract void observeFailure(Throwable failure);

	/**
	 * Clear what a failed application began of its answer, keeping what {@link ReplacedAnswer}
	 * keeps.
	 */
	protected abstract void replaceAnswer();

	/**
	 * Mark the request as answered by the starter: the cause in the request's
	 * {@link RequestDecider#SHED_CAUSE_ATTRIBUTE attribute}, and the route's pattern in the
	 * server's observation, by which the standard HTTP metrics name it as they name a request a
	 * handler served.
	 * @param cause why the request is not served
	 * @param pathPattern the route's pattern, or {@code null} for a request of no route
	 */
	protected abstract void answering(String cause, @Nullable String pathPattern);

	/**
	 * Write an answer the starter prepared.
	 * @param answer the answer
	 * @return what the step returns
	 * @throws X what the stack may throw
	 */
	protected abstract R write(Answer answer) throws X;

	/**
	 * Let what still arrives of the request's body go, within bounds
	 * ({@link #UNREAD_BODY_BYTES}, {@link #UNREAD_BODY_TIME}) and without holding a thread, once
	 * the starter answered the request in its stead: a connection closed on a body not read is
	 * reset, and the reset discards the answer before a caller still sending its body reads it.
	 * Tomcat swallows such a body itself and Reactor Netty lets it go; Jetty does neither.
	 * @param written what writing the answer returned
	 * @return what the step returns
	 * @throws X what the stack may throw
	 */
	protected abstract R lettingBodyGo(R written) throws X;

}

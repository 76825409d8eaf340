package dev.degradation.web;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.degradation.engine.DegradationState;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.PassedPriority;
import dev.degradation.engine.OverloadSignal;

/**
 * What the starter decided for one request ({@link RequestDecider#decide}): let it through, answer
 * its route's fallback, refuse it, or let it wait for a place. Each web stack carries it out with
 * its own types; none decides anything itself.
 */
public sealed interface Decision permits Decision.Proceed, Decision.Answered, Decision.Wait {

	/**
	 * Return the state the decision was taken in.
	 * @return the state
	 */
	DegradationState state();

	/**
	 * Return the caller's deadline, as nanoseconds left when the request arrived ({@code -1} for
	 * none, {@code 0} for passed).
	 * @return the deadline
	 */
	long deadlineNanos();

	/**
	 * Answer the request with something the starter prepared instead of the application: a shed
	 * route's fallback, or a refusal. Both stacks write it alike: the cause in the request's
	 * {@link RequestDecider#SHED_CAUSE_ATTRIBUTE attribute}, the route's pattern in the server's
	 * observation when there is a route, then the answer.
	 */
	sealed interface Answered extends Decision permits Shed, Refuse {

		/**
		 * Return why the request is not served, as in {@link DegradationHeaders#REASON}.
		 * @return the cause
		 */
		String cause();

		/**
		 * Return the pattern of the request's route, by which the server's metrics name the
		 * request as they name one a handler served.
		 * @return the pattern, or {@code null} when the request is of no route
		 */
		@Nullable String pathPattern();

		/**
		 * Return the answer to send, counted as served.
		 * @param request the request
		 * @return the answer
		 */
		Answer answer(RequestView request);

		/**
		 * Return whether the answer is small enough to be sure of a socket's send buffer, so that
		 * a slow reader cannot hold the turn it takes with the other cheap answers.
		 * @return whether it is small
		 */
		boolean small();

		/**
		 * Return whether the answer may be a copy of the request's last good answer, which is
		 * looked up by the request's principal too ({@link RequestView#principal()}).
		 * @return whether the answer reads the route's copies
		 */
		default boolean servesCopies() {
			return false;
		}

	}

	/**
	 * Let the request through to the application.
	 *
	 * @param state the state it was let through in
	 * @param route its route, when it was looked up ({@code null} for a path of no route, and for
	 * any request while nothing is shed and no route keeps stale copies)
	 * @param admitted its place in admission, which it holds until it ends, or {@code null} when
	 * admission is off or the path is the Actuator's
	 * @param deadlineNanos the caller's deadline
	 * @param priority the priority the request is served at, passed on with the calls made for
	 * it ({@link PassedPriority}), or {@link #NOT_PASSED} when priorities are not passed on
	 * @param simulation the simulation the request asked for itself, held while it is served so
	 * that its guarded calls follow it, or {@code null}
	 */
	record Proceed(DegradationState state, @Nullable ShedRoute route, @Nullable Admitted admitted, long deadlineNanos,
			int priority, @Nullable RequestSimulation simulation) implements Decision {

		/**
		 * The {@link #priority()} of a request when priorities are not passed on: below
		 * {@link PassedPriority#LOWEST}, so no value of a caller's header is read as it.
		 */
		public static final int NOT_PASSED = PassedPriority.LOWEST - 1;

		/**
		 * Let a request through that asked for no simulation of its own.
		 * @param state the state it was let through in
		 * @param route its route, when it was looked up
		 * @param admitted its place in admission, or {@code null}
		 * @param deadlineNanos the caller's deadline
		 * @param priority the priority the request is served at, or {@link #NOT_PASSED}
		 */
		public Proceed(DegradationState state, @Nullable ShedRoute route, @Nullable Admitted admitted,
				long deadlineNanos, int priority) {
			this(state, route, admitted, deadlineNanos, priority, null);
		}

		/**
		 * Return whether the request's priority is passed on with the calls made for it.
		 * @return whether {@link #priority()} is one
		 */
		public boolean passesPriority() {
			return this.priority != NOT_PASSED;
		}

		/**
		 * Return the copies of the request's route when the request's answer is one to copy: a
		 * {@code GET} of a {@code stale} route, not simulated (a simulated request's answer may be
		 * reduced, and is never a last good answer).
		 * @param method the request's method
		 * @return the route's copies, or {@code null} when the answer is not copied
		 */
		public StaleAnswers.@Nullable RouteCopies copies(String method) {
			ShedRoute route = this.route;
			return (route != null && this.simulation == null && route.writer() instanceof FallbackWriter.Stale stale
					&& method.equals("GET")) ? stale.copies() : null;
		}

		/**
		 * Tell the limit that the admitted request was given up by the server (a time-out of an
		 * asynchronous request, the service's own setting): a loss. Every other end goes through
		 * {@link RequestDecider#end}.
		 */
		public void dropped() {
			if (this.admitted != null) {
				this.admitted.onDropped();
			}
		}

	}

	/**
	 * Answer the route's fallback instead of the application.
	 *
	 * @param state the state in which the route was shed
	 * @param route the route
	 * @param cause why, as in {@link DegradationHeaders#REASON}
	 * @param kind the {@link dev.degradation.engine.ShedSignal#kind() kind} of signal that shed it,
	 * as counted
	 * @param deadlineNanos the caller's deadline
	 */
	record Shed(DegradationState state, ShedRoute route, String cause, String kind,
			long deadlineNanos) implements Answered {

		@Override
		public String pathPattern() {
			return this.route.route().path();
		}

		/**
		 * Return the fallback answer, counted as served.
		 * @param request the request
		 * @return the answer to send
		 */
		@Override
		public Answer answer(RequestView request) {
			Answer answer = this.route.writer().answer(request, this.state, this.cause);
			if (this.cause.equals(RequestSimulation.CAUSE)) {
				this.state.fallbackCounts().recordRequestSimulation(this.route.index());
			}
			else {
				this.state.fallbackCounts().record(this.route.index(), this.kind);
			}
			return answer;
		}

		@Override
		public boolean small() {
			return this.route.writer().small();
		}

		@Override
		public boolean servesCopies() {
			return this.route.writer() instanceof FallbackWriter.Stale;
		}

	}

	/**
	 * Refuse a request admission has no place for: the configured status (503 by default, or
	 * 429) with a bounded {@code Retry-After}.
	 *
	 * @param state the state
	 * @param overload admission as the request saw it
	 * @param deadlineNanos the caller's deadline
	 */
	record Refuse(DegradationState state, OverloadSignal.Active overload, long deadlineNanos) implements Answered {

		@Override
		public String cause() {
			return OverloadSignal.CAUSE;
		}

		@Override
		public @Nullable String pathPattern() {
			return null;
		}

		/**
		 * Return the refusal, marked so that it is never taken for the service's own answer nor
		 * cached.
		 * @param request the request
		 * @return the answer to send
		 */
		@Override
		public Answer answer(RequestView request) {
			return new Answer(this.overload.refusalStatus(),
					new String[] { "Retry-After", this.overload.retryAfterHeader(), DegradationHeaders.DEGRADED,
							"true", DegradationHeaders.REASON, cause(), "Cache-Control", "no-store" },
					Answer.EMPTY);
		}

		@Override
		public boolean small() {
			return true;
		}

	}

	/**
	 * No place now for a request that may wait: the stack waits at most {@link #waitNanos()}
	 * (a parked request thread on the servlet stack, a timer on the reactive one), then asks
	 * {@link RequestDecider#afterWait}.
	 *
	 * @param state the state
	 * @param route the request's route, or {@code null}
	 * @param overload admission as the request saw it
	 * @param deadlineNanos the caller's deadline
	 * @param priority the priority the request will be served at, as in {@link Proceed}
	 * @param simulation the simulation the request asked for itself, as in {@link Proceed}
	 */
	record Wait(DegradationState state, @Nullable ShedRoute route, OverloadSignal.Active overload, long deadlineNanos,
			int priority, @Nullable RequestSimulation simulation) implements Decision {

		/**
		 * Return how long the request may wait: the queue bound, and never past the deadline.
		 * @return the bound in nanoseconds
		 */
		public long waitNanos() {
			return this.overload.admission().waitBound(this.deadlineNanos);
		}

		/**
		 * Wait for a place on this thread, at most {@link #waitNanos()}: the servlet stack's wait,
		 * on a request thread that may park.
		 * @return the place, or {@code null} when none freed in time
		 */
		public @Nullable Admitted await() {
			return this.overload.admission().await(waitNanos());
		}

		/**
		 * Wait for a place without a thread: the future completes with the place when one is
		 * handed to this request, or empty ({@code null}) when {@link #waitNanos()} has passed;
		 * either wins, never both (a place handed over as the time ran out is given back).
		 * Cancelling it (a client that left) counts the request as refused. It completes on the
		 * thread that freed the place or on the JDK's timer thread: the caller moves on from there.
		 * @return the future place
		 */
		public CompletableFuture<@Nullable Admitted> awaitWithoutThread() {
			CompletableFuture<@Nullable Admitted> place = this.overload.admission().awaitWithoutThread();
			if (!place.isDone()) {
				// Not completeOnTimeout: it cancels its timer when a place comes first, and the
				// JDK's timer removes a cancelled task under a lock, which an event loop may then
				// wait for. The timer fires instead, and finds the place taken.
				CompletableFuture.delayedExecutor(Math.max(1, waitNanos()), TimeUnit.NANOSECONDS, Runnable::run)
					.execute(() -> place.complete(null));
			}
			return place;
		}

	}

}

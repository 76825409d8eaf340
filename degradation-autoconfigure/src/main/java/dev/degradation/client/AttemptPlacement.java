package dev.degradation.client;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Where the attempts of the calls through one HTTP client run, and running them there. A client is
 * known to enforce the limit once an attempt's {@link AttemptLimit} was claimed; from then on its
 * attempts run on the caller's thread. Should an attempt on the caller's thread go unclaimed (the
 * client was replaced), the next ones run on the executor again.
 */
final class AttemptPlacement {

	// The lines keep the guard's category, which operators filter on.
	private static final Log logger = LogFactory.getLog(DependencyGuard.class);

	/** Always on the executor: code that no client hook sees. */
	static final AttemptPlacement THREAD = new AttemptPlacement(false, (dependency) -> {
	});

	private final boolean learns;

	private final Consumer<String> unbounded;

	private volatile boolean callerThread;

	private volatile boolean toldUnbounded;

	private AttemptPlacement(boolean learns, Consumer<String> unbounded) {
		this.learns = learns;
		this.unbounded = unbounded;
	}

	/**
	 * Return a placement that starts on the executor and learns from its client.
	 * @return a new placement
	 */
	static AttemptPlacement learning() {
		return learning((dependency) -> {
		});
	}

	/**
	 * Return a placement that starts on the executor, learns from its client, and says so
	 * the first time an attempt of its ended without its client enforcing the limit.
	 * @param unbounded told the dependency of that attempt, once
	 * @return a new placement
	 */
	static AttemptPlacement learning(Consumer<String> unbounded) {
		return new AttemptPlacement(true, unbounded);
	}

	boolean onCallerThread() {
		return this.callerThread;
	}

	/**
	 * Make one attempt: on the caller's thread when its client is known to enforce the limit,
	 * else on the executor.
	 * @param call the attempt
	 * @param limit the time it may take
	 * @param executor the guards' bounded executor
	 * @param dependency the dependency called
	 */
	<T> T run(DependencyGuard.Attempt<T> call, Duration limit, GuardExecutor executor, String dependency)
			throws TimeoutException, InterruptedException, ExecutionException {
		if (!onCallerThread()) {
			return executor.run(() -> limited(call, limit, dependency), limit);
		}
		try {
			return limited(call, limit, dependency);
		}
		catch (Exception ex) {
			if (Thread.currentThread().isInterrupted()) {
				throw new InterruptedException("Caller interrupted");
			}
			throw new ExecutionException(ex);
		}
	}

	private <T> T limited(DependencyGuard.Attempt<T> call, Duration limit, String dependency) throws Exception {
		try (AttemptLimit attempt = AttemptLimit.begin(limit, () -> learn(true, dependency, true))) {
			boolean sent = false;
			try {
				T answer = call.call(limit);
				sent = true;
				return answer;
			}
			catch (java.io.IOException | java.io.UncheckedIOException ex) {
				// The request went out (or tried to): what the client did with the limit is known.
				sent = true;
				throw ex;
			}
			finally {
				learn(attempt.claimed(), dependency, sent);
			}
		}
	}

	/**
	 * Learn from an attempt whether its client enforces the limit.
	 * @param claimed whether the client claimed the attempt's limit
	 * @param dependency the dependency called
	 * @param sent whether the attempt got as far as the client's I/O (an answer or an I/O
	 * failure), so that an unclaimed limit says something of the client, not of code before
	 * it that failed (a load balancer without an instance)
	 */
	void learn(boolean claimed, String dependency, boolean sent) {
		if (!this.learns || (!claimed && !sent)) {
			return;
		}
		if (!claimed && !this.callerThread && !this.toldUnbounded) {
			this.toldUnbounded = true;
			this.unbounded.accept(dependency);
		}
		if (claimed == this.callerThread) {
			return;
		}
		this.callerThread = claimed;
		if (claimed) {
			logger.debug("The HTTP client of calls to '" + dependency
					+ "' enforces their time limit: they run on their caller's thread");
		}
		else {
			logger.warn("The HTTP client of calls to '" + dependency + "' did not enforce their time limit "
					+ "(a request factory without the starter's per-request timeout?): they run on the "
					+ "guards' bounded executor again");
		}
	}

}

package dev.degradation.benchmarks;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load of the overload harness ({@code benchmarks/overload.sh}), made of streams that run side
 * by side for the same time, each on its own path:
 * <ul>
 * <li>{@code open=PATH@RATE} an open loop: requests arrive at a fixed rate whatever the answers do,
 * as users arrive; {@code open=PATH@RATE>RATE2} steps to another rate halfway through;</li>
 * <li>{@code closed=PATH@CLIENTS} a closed loop: that many clients, each sending its next request
 * the moment it has an answer (a retry storm, as seed 000's 200 connections).</li>
 * </ul>
 * Every request carries a client deadline after which its caller gives up (and says so to the
 * server in {@code x-envoy-expected-rq-timeout-ms}). Every answer is classified by what its
 * caller got: a live answer, a fallback (2xx marked {@code X-Degraded}), a fast refusal (503 or
 * 429), a timeout, or an error; each class has its latency percentiles. Times are taken around
 * each request with {@link System#nanoTime()}, so that a closed connection cannot mis-time the
 * next answer. Loopback only; bounded in count and time.
 *
 * <pre>
 * java -cp benchmarks.jar dev.degradation.benchmarks.OverloadClient http://127.0.0.1:8080 SECONDS DEADLINE_MS STREAM...
 * </pre>
 * Prints one tab-separated line per stream: kind, path, sent, live, fallback, refused, timeouts,
 * errors, the p50 and p99 in milliseconds of live answers, fallbacks and refusals, and for a
 * stepped stream the time after the step until the live answers' p99 is back under three times
 * its p99 before the step (in ms, {@code -} when it never is) and the timeouts of the first second
 * after the step. A last line gives the client's own CPU time: {@code client_cpu_seconds N}.
 */
public final class OverloadClient {

	private static final int MAX_REQUESTS_PER_STREAM = 200_000;

	private static final long BIN_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

	private OverloadClient() {
	}

	public static void main(String[] args) throws Exception {
		URI base = URI.create(args[0]);
		if (!base.getHost().equals("127.0.0.1") && !base.getHost().equals("localhost")) {
			throw new IllegalArgumentException("The harness sends traffic to loopback only, not to " + base.getHost());
		}
		Duration duration = Duration.ofSeconds(Long.parseLong(args[1]));
		Duration deadline = Duration.ofMillis(Long.parseLong(args[2]));
		List<Stream> streams = new ArrayList<>();
		for (int i = 3; i < args.length; i++) {
			streams.add(Stream.parse(args[i], base, deadline));
		}
		long start = System.nanoTime();
		long stop = start + duration.toNanos();
		List<Thread> closedLoops = new ArrayList<>();
		ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(streams.size());
		// Open-loop requests each get a thread of their own, so that a slow answer never delays
		// the arrivals behind it (virtual threads where the client's JDK has them).
		ExecutorService senders = RawHttp.threadPerTask();
		AtomicInteger outstanding = new AtomicInteger();
		for (Stream stream : streams) {
			stream.start = start;
			stream.stepAt = start + duration.toNanos() / 2;
			if (stream.closed) {
				for (int c = 0; c < stream.clients; c++) {
					Thread loop = new Thread(() -> {
						RawHttp.Connection connection = null;
						while (System.nanoTime() < stop && stream.sent.get() < MAX_REQUESTS_PER_STREAM) {
							stream.sent.incrementAndGet();
							long sent = System.nanoTime();
							connection = stream.exchange(connection, sent);
						}
						RawHttp.close(connection);
					}, "closed-loop-" + c);
					loop.setDaemon(true);
					closedLoops.add(loop);
				}
			}
			else {
				schedule(scheduler, senders, stream, stop, outstanding);
			}
		}
		closedLoops.forEach(Thread::start);
		long end = stop + deadline.toNanos() + TimeUnit.SECONDS.toNanos(2);
		while (System.nanoTime() < end && (System.nanoTime() < stop || outstanding.get() > 0
				|| closedLoops.stream().anyMatch(Thread::isAlive))) {
			TimeUnit.MILLISECONDS.sleep(10);
		}
		scheduler.shutdownNow();
		senders.shutdownNow();
		for (Stream stream : streams) {
			System.out.println(stream);
		}
		long cpuNanos = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
		System.out.println(String.format(Locale.ROOT, "client_cpu_seconds\t%.2f", cpuNanos / 1e9));
		System.exit(0);
	}

	private static void schedule(ScheduledExecutorService scheduler, ExecutorService senders, Stream stream, long stop,
			AtomicInteger outstanding) {
		// Arrivals are counted against the clock, not against the scheduler's ticks, so that a
		// late tick sends the requests that were due instead of losing them; each is timed from
		// when it was due, so that a late send is not hidden (no coordinated omission).
		scheduler.scheduleAtFixedRate(() -> {
			long now = System.nanoTime();
			if (now >= stop) {
				return;
			}
			long due = stream.due(now);
			while (stream.scheduled.get() < due && stream.sent.get() < MAX_REQUESTS_PER_STREAM) {
				long dueAt = stream.dueAt(stream.scheduled.getAndIncrement());
				stream.sent.incrementAndGet();
				outstanding.incrementAndGet();
				senders.execute(() -> {
					try {
						RawHttp.Connection connection = stream.exchange(stream.idle.poll(), dueAt);
						if (connection != null) {
							stream.idle.add(connection);
						}
					}
					finally {
						outstanding.decrementAndGet();
					}
				});
			}
		}, 0, 1, TimeUnit.MILLISECONDS);
	}

	/**
	 * One stream of requests to one path.
	 */
	static final class Stream {

		final String kind;

		final URI uri;

		final boolean closed;

		final int clients;

		final double rate;

		final double stepRate;

		final AtomicLong sent = new AtomicLong();

		final AtomicLong scheduled = new AtomicLong();

		final Tally tally = new Tally();

		final ConcurrentLinkedQueue<RawHttp.Connection> idle = new ConcurrentLinkedQueue<>();

		final Duration deadline;

		final byte[] request;

		long start;

		long stepAt;

		private Stream(String kind, URI uri, boolean closed, int clients, double rate, double stepRate,
				Duration deadline) {
			this.deadline = deadline;
			this.request = RawHttp.request(uri, deadline);
			this.kind = kind;
			this.uri = uri;
			this.closed = closed;
			this.clients = clients;
			this.rate = rate;
			this.stepRate = stepRate;
		}

		static Stream parse(String spec, URI base, Duration deadline) {
			String[] kindAndRest = spec.split("=", 2);
			String[] pathAndLoad = kindAndRest[1].split("@", 2);
			URI uri = base.resolve(pathAndLoad[0]);
			if (kindAndRest[0].equals("closed")) {
				return new Stream("closed", uri, true, Integer.parseInt(pathAndLoad[1]), 0, 0, deadline);
			}
			String[] rates = pathAndLoad[1].split(">", 2);
			double rate = Double.parseDouble(rates[0]);
			double stepRate = (rates.length > 1) ? Double.parseDouble(rates[1]) : rate;
			return new Stream((rates.length > 1) ? "step" : "open", uri, false, 0, rate, stepRate, deadline);
		}

		boolean stepped() {
			return this.stepRate != this.rate;
		}

		/**
		 * How many requests are due by now (request {@code n} is due at {@link #dueAt(long)}, the
		 * first one at the start): the rate until the step, the step's rate after it.
		 */
		long due(long now) {
			double before = Math.min(now, this.stepAt) - this.start;
			double after = Math.max(0, now - this.stepAt);
			return (long) Math.floor((before * this.rate + after * this.stepRate) / 1e9) + 1;
		}

		/** When the request of that number is due. */
		long dueAt(long number) {
			double beforeStep = (this.stepAt - this.start) * this.rate / 1e9;
			if (number < beforeStep) {
				return this.start + (long) (number * 1e9 / this.rate);
			}
			return this.stepAt + (long) ((number - beforeStep) * 1e9 / this.stepRate);
		}

		/**
		 * Send one request on a connection (a new one when there is none or it was closed) and
		 * record what came back by the deadline, timed from {@code sent}.
		 * @return the connection, still open for the next request, or {@code null}
		 */
		RawHttp.Connection exchange(RawHttp.Connection connection, long sent) {
			long deadlineAt = sent + this.deadline.toNanos();
			try {
				if (connection == null) {
					connection = RawHttp.open(this.uri, deadlineAt);
				}
				RawHttp.Answer answer = connection.exchange(this.request, deadlineAt);
				this.tally.record(answer.status(), answer.degraded(), sent, System.nanoTime());
				if (answer.close()) {
					RawHttp.close(connection);
					return null;
				}
				return connection;
			}
			catch (java.net.SocketTimeoutException ex) {
				this.tally.timeout(sent);
			}
			catch (java.io.IOException ex) {
				this.tally.error();
			}
			RawHttp.close(connection);
			return null;
		}

		@Override
		public String toString() {
			String line = this.kind + "\t" + this.uri.getPath() + "\t" + this.tally;
			if (stepped()) {
				line += "\t" + this.tally.recovery(this.stepAt) + "\t" + this.tally.timeoutsSentIn(this.stepAt,
						this.stepAt + TimeUnit.SECONDS.toNanos(1));
			}
			return line;
		}

	}

	/**
	 * What the callers of one stream got.
	 */
	static final class Tally {

		final ConcurrentLinkedQueue<long[]> live = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Long> fallback = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Long> refused = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Long> timeouts = new ConcurrentLinkedQueue<>();

		final AtomicInteger errors = new AtomicInteger();

		void record(int status, boolean degraded, long sent, long answered) {
			long micros = TimeUnit.NANOSECONDS.toMicros(answered - sent);
			if (status == 503 || status == 429) {
				this.refused.add(micros);
			}
			else if (status >= 200 && status < 300) {
				if (degraded) {
					this.fallback.add(micros);
				}
				else {
					this.live.add(new long[] { sent, micros });
				}
			}
			else {
				this.errors.incrementAndGet();
			}
		}

		void timeout(long sent) {
			this.timeouts.add(sent);
		}

		void error() {
			this.errors.incrementAndGet();
		}

		/**
		 * The time after the step until the p99 of the live answers sent in each 250 ms is back
		 * under three times what it was before the step, for good.
		 */
		String recovery(long stepAt) {
			List<Long> before = new ArrayList<>();
			List<List<Long>> bins = new ArrayList<>();
			for (long[] answer : this.live) {
				if (answer[0] < stepAt) {
					before.add(answer[1]);
				}
				else {
					int bin = (int) ((answer[0] - stepAt) / BIN_NANOS);
					while (bins.size() <= bin) {
						bins.add(new ArrayList<>());
					}
					bins.get(bin).add(answer[1]);
				}
			}
			if (before.isEmpty() || bins.isEmpty()) {
				return "-";
			}
			Collections.sort(before);
			long bound = 3 * quantile(before, 0.99);
			int recovered = 0;
			for (int bin = 0; bin < bins.size(); bin++) {
				List<Long> answers = bins.get(bin);
				Collections.sort(answers);
				if (!answers.isEmpty() && quantile(answers, 0.99) > bound) {
					recovered = bin + 1;
				}
			}
			return (recovered >= bins.size()) ? "-" : Long.toString(recovered * BIN_NANOS / 1_000_000);
		}

		long timeoutsSentIn(long from, long to) {
			return this.timeouts.stream().filter((sent) -> sent >= from && sent < to).count();
		}

		@Override
		public String toString() {
			List<Long> liveMicros = new ArrayList<>();
			this.live.forEach((answer) -> liveMicros.add(answer[1]));
			int sent = liveMicros.size() + this.fallback.size() + this.refused.size() + this.timeouts.size()
					+ this.errors.get();
			return String.join("\t", Integer.toString(sent), Integer.toString(liveMicros.size()),
					Integer.toString(this.fallback.size()), Integer.toString(this.refused.size()),
					Integer.toString(this.timeouts.size()), Integer.toString(this.errors.get()),
					percentiles(liveMicros), percentiles(new ArrayList<>(this.fallback)),
					percentiles(new ArrayList<>(this.refused)));
		}

		private static String percentiles(List<Long> micros) {
			if (micros.isEmpty()) {
				return "-\t-";
			}
			Collections.sort(micros);
			return millis(quantile(micros, 0.50)) + "\t" + millis(quantile(micros, 0.99));
		}

		private static long quantile(List<Long> sorted, double quantile) {
			return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1));
		}

		private static String millis(long micros) {
			return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
		}

	}

}

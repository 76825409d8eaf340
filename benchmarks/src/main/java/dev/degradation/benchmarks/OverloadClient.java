package dev.degradation.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load of the overload harness ({@code benchmarks/overload.sh}): requests arrive at a fixed
 * rate whatever the answers do (an open loop, as users arrive), each with a client deadline after
 * which the client gives up (and says so to the server in {@code x-envoy-expected-rq-timeout-ms}).
 * Every answer is classified by what its caller got: a live answer, a fallback (marked
 * {@code X-Degraded}), a fast refusal (503), a timeout, or an error; each class has its latency
 * percentiles. Times are taken around each request with {@link System#nanoTime()}, so that a
 * closed connection cannot mis-time the next answer. Loopback only; bounded in count and time.
 *
 * <pre>
 * java -cp benchmarks.jar dev.degradation.benchmarks.OverloadClient http://127.0.0.1:8080 RATE SECONDS DEADLINE_MS
 *     CORE_PATH [DEGRADABLE_PATH DEGRADABLE_SHARE]
 * </pre>
 * Prints one tab-separated line per path: path, sent, live, fallback, refused, timeouts, errors,
 * and the p50 and p99 in milliseconds of live answers, fallbacks and refusals.
 */
public final class OverloadClient {

	private static final int MAX_REQUESTS = 200_000;

	private OverloadClient() {
	}

	public static void main(String[] args) throws Exception {
		URI base = URI.create(args[0]);
		if (!base.getHost().equals("127.0.0.1") && !base.getHost().equals("localhost")) {
			throw new IllegalArgumentException("The harness sends traffic to loopback only, not to " + base.getHost());
		}
		double rate = Double.parseDouble(args[1]);
		Duration duration = Duration.ofSeconds(Long.parseLong(args[2]));
		Duration deadline = Duration.ofMillis(Long.parseLong(args[3]));
		String corePath = args[4];
		String degradablePath = (args.length > 5) ? args[5] : null;
		double degradableShare = (args.length > 6) ? Double.parseDouble(args[6]) : 0;
		HttpClient client = HttpClient.newBuilder().connectTimeout(deadline).build();
		Map<String, Tally> tallies = new LinkedHashMap<>();
		tallies.put(corePath, new Tally());
		if (degradablePath != null) {
			tallies.put(degradablePath, new Tally());
		}
		long periodNanos = (long) (1e9 / rate);
		long total = Math.min(MAX_REQUESTS, (long) (rate * duration.toSeconds()));
		AtomicLong sent = new AtomicLong();
		AtomicInteger outstanding = new AtomicInteger();
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
		// The scheduler only hands requests out: opening a connection (Tomcat closes one after every
		// 503) must not delay the arrivals behind it, or they would come in bursts.
		ExecutorService senders = Executors.newFixedThreadPool(8);
		scheduler.scheduleAtFixedRate(() -> senders.execute(() -> {
			long n = sent.getAndIncrement();
			if (n >= total) {
				return;
			}
			// The degradable requests are spread evenly among the core ones (with a share of 0.5, every
			// other request): in runs of one path, the other's capacity would sit idle.
			boolean degradable = degradablePath != null
					&& Math.floor((n + 1) * degradableShare) > Math.floor(n * degradableShare);
			String path = degradable ? degradablePath : corePath;
			Tally tally = tallies.get(path);
			HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
				.timeout(deadline)
				.header("x-envoy-expected-rq-timeout-ms", Long.toString(deadline.toMillis()))
				.GET()
				.build();
			long start = System.nanoTime();
			outstanding.incrementAndGet();
			client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
				long micros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start);
				tally.record(response, failure, micros);
				outstanding.decrementAndGet();
			});
		}), 0, periodNanos, TimeUnit.NANOSECONDS);
		long end = System.nanoTime() + duration.toNanos() + deadline.toNanos() + TimeUnit.SECONDS.toNanos(2);
		while (System.nanoTime() < end && (sent.get() < total || outstanding.get() > 0)) {
			TimeUnit.MILLISECONDS.sleep(10);
		}
		scheduler.shutdownNow();
		senders.shutdownNow();
		tallies.forEach((path, tally) -> System.out.println(path + "\t" + tally));
		System.exit(0);
	}

	/**
	 * What the callers of one path got.
	 */
	static final class Tally {

		final ConcurrentLinkedQueue<Long> live = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Long> fallback = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Long> refused = new ConcurrentLinkedQueue<>();

		final AtomicInteger timeouts = new AtomicInteger();

		final AtomicInteger errors = new AtomicInteger();

		void record(HttpResponse<Void> response, Throwable failure, long micros) {
			if (failure != null) {
				Throwable cause = (failure instanceof CompletionException) ? failure.getCause() : failure;
				(cause instanceof HttpTimeoutException ? this.timeouts : this.errors).incrementAndGet();
				return;
			}
			int status = response.statusCode();
			if (status == 503) {
				this.refused.add(micros);
			}
			else if (status >= 200 && status < 300) {
				(response.headers().firstValue("X-Degraded").isPresent() ? this.fallback : this.live).add(micros);
			}
			else {
				this.errors.incrementAndGet();
			}
		}

		@Override
		public String toString() {
			int sent = this.live.size() + this.fallback.size() + this.refused.size() + this.timeouts.get()
					+ this.errors.get();
			return String.join("\t", Integer.toString(sent), Integer.toString(this.live.size()),
					Integer.toString(this.fallback.size()), Integer.toString(this.refused.size()),
					Integer.toString(this.timeouts.get()), Integer.toString(this.errors.get()), percentiles(this.live),
					percentiles(this.fallback), percentiles(this.refused));
		}

		private static String percentiles(ConcurrentLinkedQueue<Long> micros) {
			List<Long> sorted = new ArrayList<>(micros);
			if (sorted.isEmpty()) {
				return "-\t-";
			}
			Collections.sort(sorted);
			return millis(sorted, 0.50) + "\t" + millis(sorted, 0.99);
		}

		private static String millis(List<Long> sorted, double quantile) {
			long micros = sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1));
			return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
		}

	}

}

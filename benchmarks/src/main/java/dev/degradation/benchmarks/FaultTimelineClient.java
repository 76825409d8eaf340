package dev.degradation.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a caller of one route sees when one of the sample shop's dependencies breaks under its
 * traffic ({@code benchmarks/fault-timeline.sh}): requests at a fixed rate to the route, and after
 * a while the dependency switched to a fault through the shop's demo API. Prints, from the moment
 * of the fault: the first fallback, the error answers (5xx other than fallbacks), the slowest
 * answer, and the fallbacks by their {@code X-Degradation-Reason}. Loopback only; bounded in count and time.
 *
 * <pre>
 * java -cp benchmarks.jar dev.degradation.benchmarks.FaultTimelineClient http://127.0.0.1:8080 PATH DEPENDENCY MODE
 *     RATE SECONDS FAULT_AFTER_SECONDS
 * </pre>
 */
public final class FaultTimelineClient {

	private FaultTimelineClient() {
	}

	public static void main(String[] args) throws Exception {
		URI base = URI.create(args[0]);
		if (!base.getHost().equals("127.0.0.1") && !base.getHost().equals("localhost")) {
			throw new IllegalArgumentException("Loopback only, not " + base.getHost());
		}
		String path = args[1];
		String dependency = args[2];
		String mode = args[3];
		double rate = Double.parseDouble(args[4]);
		long seconds = Long.parseLong(args[5]);
		long faultAfter = Long.parseLong(args[6]);
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		long start = System.nanoTime();
		AtomicLong faultAt = new AtomicLong(Long.MAX_VALUE);
		ConcurrentLinkedQueue<long[]> answers = new ConcurrentLinkedQueue<>();
		java.util.Map<String, AtomicInteger> firstReasons = new java.util.concurrent.ConcurrentSkipListMap<>();
		AtomicInteger outstanding = new AtomicInteger();
		long total = (long) (rate * seconds);
		AtomicLong sent = new AtomicLong();
		ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
		scheduler.schedule(() -> {
			try {
				client.send(HttpRequest.newBuilder(base.resolve("/demo/dependencies/" + dependency))
					.header("Content-Type", "application/json")
					.PUT(HttpRequest.BodyPublishers.ofString("{\"mode\": \"" + mode + "\"}"))
					.build(), HttpResponse.BodyHandlers.discarding());
				faultAt.set(System.nanoTime());
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, faultAfter, TimeUnit.SECONDS);
		scheduler.scheduleAtFixedRate(() -> {
			if (sent.getAndIncrement() >= total) {
				return;
			}
			long sentAt = System.nanoTime();
			outstanding.incrementAndGet();
			client.sendAsync(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET().build(),
					HttpResponse.BodyHandlers.discarding())
				.whenComplete((response, failure) -> {
					long kind = (failure != null) ? 2
							: response.headers().firstValue("X-Degraded").isPresent() ? 1
									: (response.statusCode() >= 500) ? 2 : 0;
					if (kind == 1 && sentAt >= faultAt.get()) {
						firstReasons
							.computeIfAbsent(response.headers().firstValue("X-Degradation-Reason").orElse("?"),
									(reason) -> new AtomicInteger())
							.incrementAndGet();
					}
					answers.add(new long[] { sentAt, System.nanoTime() - sentAt, kind });
					outstanding.decrementAndGet();
				});
		}, 0, (long) (1e9 / rate), TimeUnit.NANOSECONDS);
		long end = start + TimeUnit.SECONDS.toNanos(seconds + 35);
		while (System.nanoTime() < end && (sent.get() < total || outstanding.get() > 0)) {
			TimeUnit.MILLISECONDS.sleep(20);
		}
		scheduler.shutdownNow();
		long fault = faultAt.get();
		long firstFallback = Long.MAX_VALUE;
		int errors = 0;
		int fallbacks = 0;
		int live = 0;
		long slowest = 0;
		for (long[] answer : answers) {
			if (answer[0] < fault) {
				continue;
			}
			slowest = Math.max(slowest, answer[1]);
			if (answer[2] == 1) {
				fallbacks++;
				firstFallback = Math.min(firstFallback, answer[0] + answer[1] - fault);
			}
			else if (answer[2] == 2) {
				errors++;
			}
			else {
				live++;
			}
		}
		System.out.println(String.join("\t", path, dependency, mode, Integer.toString(live), Integer.toString(errors),
				Integer.toString(fallbacks),
				(firstFallback == Long.MAX_VALUE) ? "-"
						: String.format(Locale.ROOT, "%.2f", firstFallback / 1e9),
				String.format(Locale.ROOT, "%.3f", slowest / 1e9),
				firstReasons.entrySet().stream().map((entry) -> entry.getKey() + " " + entry.getValue())
					.collect(java.util.stream.Collectors.joining(", "))));
		System.exit(0);
	}

}

package dev.degradation.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Seed 000's breaker run against the sample shop ({@code benchmarks/breaker-timeline.sh}): one
 * route called at a fixed rate, its dependency broken through the shop's demo API and repaired
 * later, and every answer labelled with the state of the dependency's breaker when the request was
 * sent and what became of it: {@code closed/live} and {@code half-open/probe} made a call,
 * {@code open/skipped} and {@code half-open/skipped} were answered with the route's fallback
 * without one. The breaker's transitions are the shop's own, read from {@code breakerChangedAt} of
 * {@code /actuator/degradation} (polled every 50 ms, each change kept with its exact time), so
 * the labels do not depend on when the poll happened to run. Prints a Markdown table of the runs
 * of answers alike, then the transitions. Loopback only; bounded in count and time.
 *
 * <pre>
 * java -cp benchmarks.jar dev.degradation.benchmarks.BreakerTimelineClient http://127.0.0.1:8080 PATH DEPENDENCY MODE
 *     RATE FAULT_AFTER_SECONDS REPAIR_AFTER_SECONDS MAX_SECONDS
 * </pre>
 */
public final class BreakerTimelineClient {

	private static final JsonMapper json = JsonMapper.builder().build();

	private BreakerTimelineClient() {
	}

	/**
	 * Run the breaker run and print its tables.
	 * @param args the base URL, the route's path, the dependency, the fault's mode, requests a
	 * second, the seconds before the fault and before the repair, the most seconds in all
	 * @throws Exception if the shop cannot be reached
	 */
	public static void main(String[] args) throws Exception {
		URI base = URI.create(args[0]);
		if (!base.getHost().equals("127.0.0.1") && !base.getHost().equals("localhost")) {
			throw new IllegalArgumentException("Loopback only, not " + base.getHost());
		}
		String path = args[1];
		String dependency = args[2];
		String mode = args[3];
		double rate = Double.parseDouble(args[4]);
		long faultAfter = Long.parseLong(args[5]);
		long repairAfter = Long.parseLong(args[6]);
		long maxSeconds = Long.parseLong(args[7]);
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		long startMillis = System.currentTimeMillis();
		AtomicLong faultAt = new AtomicLong();
		AtomicLong repairedAt = new AtomicLong();
		ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
		Map<Long, String> transitions = new TreeMap<>();
		AtomicInteger outstanding = new AtomicInteger();
		ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(3);
		scheduler.schedule(() -> faultAt.set(switchTo(client, base, dependency, mode)), faultAfter, TimeUnit.SECONDS);
		scheduler.schedule(() -> repairedAt.set(switchTo(client, base, dependency, "healthy")), repairAfter,
				TimeUnit.SECONDS);
		long total = (long) (rate * maxSeconds);
		AtomicLong sent = new AtomicLong();
		java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
		scheduler.scheduleAtFixedRate(() -> {
			if (stopped.get() || sent.getAndIncrement() >= total) {
				return;
			}
			long sentAt = System.currentTimeMillis();
			long sentNanos = System.nanoTime();
			outstanding.incrementAndGet();
			client.sendAsync(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET().build(),
					HttpResponse.BodyHandlers.discarding())
				.whenComplete((response, failure) -> {
					String outcome = (failure != null) ? "error"
							: response.headers().firstValue("X-Degraded").isPresent() ? "reduced"
									: (response.statusCode() >= 500) ? "error" : "full";
					String reason = (failure != null) ? ""
							: response.headers().firstValue("X-Degradation-Reason").orElse("");
					answers.add(new Answer(sentAt, (System.nanoTime() - sentNanos) / 1e6, outcome, reason));
					outstanding.decrementAndGet();
				});
		}, 0, (long) (1e9 / rate), TimeUnit.NANOSECONDS);
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
		long closedAgainAt = Long.MAX_VALUE;
		String last = "CLOSED";
		while (System.nanoTime() < end) {
			Breaker breaker = breaker(client, base, dependency);
			if (breaker.changedAt() != null) {
				transitions.put(breaker.changedAt().toEpochMilli(), breaker.state());
			}
			if (repairedAt.get() != 0 && breaker.state().equals("CLOSED") && !last.equals("CLOSED")) {
				closedAgainAt = System.nanoTime();
			}
			last = breaker.state();
			if (System.nanoTime() - closedAgainAt > TimeUnit.SECONDS.toNanos(3)) {
				break;
			}
			TimeUnit.MILLISECONDS.sleep(50);
		}
		stopped.set(true);
		long drain = System.nanoTime() + TimeUnit.SECONDS.toNanos(35);
		while (outstanding.get() > 0 && System.nanoTime() < drain) {
			TimeUnit.MILLISECONDS.sleep(20);
		}
		scheduler.shutdownNow();
		print(answers, transitions, startMillis, faultAt.get(), repairedAt.get());
		System.exit(0);
	}

	private static void print(ConcurrentLinkedQueue<Answer> answers, Map<Long, String> transitions, long start,
			long fault, long repaired) {
		List<Answer> sorted = new ArrayList<>(answers);
		sorted.sort(Comparator.comparingLong(Answer::sentAt));
		List<Run> runs = new ArrayList<>();
		for (Answer answer : sorted) {
			String state = stateAt(transitions, answer.sentAt());
			if (state.equals("OPEN") && !answer.outcome().equals("reduced")) {
				// An open breaker makes no call: this request was a trial of a half-open breaker
				// that the poll did not see, because the trials reopened it within 50 ms.
				state = "HALF_OPEN";
			}
			// A fallback made no call when the route was shed (by the breaker's dependency or by
			// admission); one that came after the call was refused while the breaker was closed
			// (its time limit) did make it.
			boolean skipped = answer.outcome().equals("reduced")
					&& !(state.equals("CLOSED") && answer.reason().startsWith("dependency:"));
			String call = skipped ? "skipped" : state.equals("HALF_OPEN") ? "probe" : "live";
			String label = state.toLowerCase(Locale.ROOT).replace('_', '-') + "/" + call;
			Run current = runs.isEmpty() ? null : runs.get(runs.size() - 1);
			if (current != null && current.label.equals(label) && current.outcome.equals(answer.outcome())) {
				current.add(answer);
			}
			else {
				Run run = new Run(label, answer.outcome());
				run.add(answer);
				runs.add(run);
			}
		}
		System.out.println("| from (s) | to (s) | breaker / call | answer | requests | mean (ms) | slowest (ms) |");
		System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
		for (Run run : runs) {
			if (run.last < fault) {
				continue;
			}
			System.out.printf(Locale.ROOT, "| %.1f | %.1f | %s | %s | %d | %.1f | %.0f |%n", seconds(run.first, fault),
					seconds(run.last, fault), run.label, run.outcome, run.count, run.total / run.count, run.slowest);
		}
		System.out.println();
		StringBuilder changes = new StringBuilder();
		for (Map.Entry<Long, String> transition : transitions.entrySet()) {
			if (transition.getKey() >= fault) {
				changes.append((changes.length() > 0) ? ", " : "")
					.append(String.format(Locale.ROOT, "%s at %.2f s", transition.getValue(),
							seconds(transition.getKey(), fault)));
			}
		}
		long errors = sorted.stream().filter((answer) -> answer.sentAt() >= fault && answer.outcome().equals("error"))
			.count();
		System.out.printf(Locale.ROOT,
				"Broken at 0.0 s, repaired at %.1f s (times from the fault). Breaker transitions (the shop's own times): %s. Error answers after the fault: %d.%n",
				seconds(repaired, fault), (changes.length() > 0) ? changes : "none", errors);
	}

	private static double seconds(long millis, long from) {
		return (millis - from) / 1000.0;
	}

	private static String stateAt(Map<Long, String> transitions, long at) {
		String state = "CLOSED";
		for (Map.Entry<Long, String> transition : transitions.entrySet()) {
			if (transition.getKey() > at) {
				break;
			}
			state = transition.getValue();
		}
		return state;
	}

	private static long switchTo(HttpClient client, URI base, String dependency, String mode) {
		try {
			// The switch takes effect while the request is served: from its sending on, every
			// answer may be the fault's.
			long at = System.currentTimeMillis();
			client.send(HttpRequest.newBuilder(base.resolve("/demo/dependencies/" + dependency))
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers.ofString("{\"mode\": \"" + mode + "\"}"))
				.build(), HttpResponse.BodyHandlers.discarding());
			return at;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Breaker breaker(HttpClient client, URI base, String dependency) throws Exception {
		HttpResponse<String> response = client.send(HttpRequest.newBuilder(base.resolve("/actuator/degradation"))
			.timeout(Duration.ofSeconds(5))
			.build(), HttpResponse.BodyHandlers.ofString());
		JsonNode node = json.readTree(response.body()).path("dependencies").path(dependency);
		JsonNode changedAt = node.path("breakerChangedAt");
		return new Breaker(node.path("breaker").asString("CLOSED"),
				(changedAt.isString()) ? Instant.parse(changedAt.asString()) : null);
	}

	private record Answer(long sentAt, double tookMillis, String outcome, String reason) {

	}

	private record Breaker(String state, Instant changedAt) {

	}

	private static final class Run {

		private final String label;

		private final String outcome;

		private long first = Long.MAX_VALUE;

		private long last;

		private int count;

		private double total;

		private double slowest;

		Run(String label, String outcome) {
			this.label = label;
			this.outcome = outcome;
		}

		void add(Answer answer) {
			this.first = Math.min(this.first, answer.sentAt());
			this.last = Math.max(this.last, answer.sentAt());
			this.count++;
			this.total += answer.tookMillis();
			this.slowest = Math.max(this.slowest, answer.tookMillis());
		}

	}

}

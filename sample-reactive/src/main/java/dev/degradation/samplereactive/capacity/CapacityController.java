package dev.degradation.samplereactive.capacity;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The catalog's capacity-limited routes, the reactive twin of the servlet sample's: checkout holds
 * the catalog's one connection to its "database" for 20 ms, so it completes about 50 checkouts a
 * second whatever it is offered, and no thread waits meanwhile (the connection is handed on first
 * come, first served; the 20 ms are a timer; work whose caller left before its turn is dropped). {@code GET /api/checkout} is core (never in the
 * manifest); {@code GET /api/checkout/suggestions} is degradable (tier best-effort) and uses the
 * same connection. {@code GET /demo/capacity} is the server's own count, for the overload harness
 * ({@code benchmarks/overload.sh}).
 */
@RestController
public class CapacityController {

	/** How long a request holds the connection. */
	public static final Duration WORK = Duration.ofMillis(20);

	private final Connection database = new Connection();

	private final LongAdder completed = new LongAdder();

	private final AtomicInteger working = new AtomicInteger();

	private final LongAdder heldNanos = new LongAdder();

	@GetMapping("/api/checkout")
	Mono<Map<String, Object>> checkout() {
		return work().thenReturn(Map.of("checkout", "confirmed", "source", "live"));
	}

	@GetMapping("/api/checkout/suggestions")
	Mono<Map<String, Object>> suggestions() {
		return work().thenReturn(Map.of("suggestions", List.of("tea", "kettle"), "source", "live"));
	}

	@GetMapping("/demo/capacity")
	Map<String, Object> capacity() {
		long completed = this.completed.sum();
		return Map.of("completed", completed, "working", this.working.get(), "heldMillis",
				(completed > 0) ? this.heldNanos.sum() / completed / 1_000_000.0 : 0);
	}

	private Mono<Void> work() {
		return Mono.defer(() -> {
			this.working.incrementAndGet();
			// A caller that leaves cancels its work, as a reactive driver cancels a query: work
			// still in line is dropped, work under way ends its 20 ms.
			return Mono.fromFuture(this.database.hold(WORK)).doFinally((signal) -> this.working.decrementAndGet());
		});
	}

	/**
	 * One connection, held by one piece of work at a time, first come first served, without a
	 * thread waiting for it or holding it: the hold is a timer on Reactor's parallel scheduler.
	 */
	final class Connection {

		private final Queue<Hold> line = new ConcurrentLinkedQueue<>();

		/** The holder and every piece of work in line: whoever brings it from 0 to 1 starts. */
		private final AtomicInteger claims = new AtomicInteger();

		/**
		 * Hold the connection for a time, in turn.
		 * @param time how long
		 * @return completed when the hold has ended; cancelling it while it waits in line drops it
		 */
		CompletableFuture<Void> hold(Duration time) {
			Hold hold = new Hold(time.toNanos());
			this.line.add(hold);
			if (this.claims.getAndIncrement() == 0) {
				next();
			}
			return hold.done;
		}

		private void next() {
			while (true) {
				// Every claim was preceded by its work's entry in the line.
				Hold hold = this.line.poll();
				if (!hold.done.isCancelled()) {
					start(hold);
					return;
				}
				if (this.claims.decrementAndGet() == 0) {
					return;
				}
			}
		}

		private void start(Hold hold) {
			long start = System.nanoTime();
			Schedulers.parallel().schedule(() -> {
				CapacityController.this.heldNanos.add(System.nanoTime() - start);
				CapacityController.this.completed.increment();
				hold.done.complete(null);
				if (this.claims.decrementAndGet() > 0) {
					next();
				}
			}, hold.nanos, TimeUnit.NANOSECONDS);
		}

	}

	private record Hold(long nanos, CompletableFuture<Void> done) {

		Hold(long nanos) {
			this(nanos, new CompletableFuture<>());
		}

	}

}

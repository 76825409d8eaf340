package dev.degradation.samplereactive.capacity;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The catalog's capacity-limited routes, the reactive twin of the servlet sample's: checkout holds
 * the catalog's one connection to its "database" for 20 ms, so it completes about 50 checkouts a
 * second whatever it is offered ({@code sample.capacity.connections} gives it a pool of more), and
 * no thread waits meanwhile (the connection is handed on first come, first served; the 20 ms are a
 * timer; work whose caller left before its turn is dropped). {@code GET /api/checkout} is core
 * (never in the manifest); {@code GET /api/checkout/suggestions} is degradable (tier best-effort)
 * and uses the same connection. {@code GET /demo/capacity} is the server's own count, for the
 * overload harness ({@code benchmarks/overload.sh}).
 */
@RestController
public class CapacityController {

	/** How long a request holds the connection. */
	public static final Duration WORK = Duration.ofMillis(20);

	private final Connections database;

	private final LongAdder completed = new LongAdder();

	private final AtomicInteger working = new AtomicInteger();

	private final LongAdder heldNanos = new LongAdder();

	CapacityController(@Value("${sample.capacity.connections:1}") int connections) {
		this.database = new Connections(connections);
	}

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
	 * A pool of connections (one by default), each held by one piece of work at a time, first come
	 * first served, without a thread waiting for it or holding it: a hold is a timer on Reactor's
	 * parallel scheduler.
	 */
	final class Connections {

		private final Queue<Hold> line = new ArrayDeque<>();

		private int free;

		Connections(int size) {
			this.free = size;
		}

		/**
		 * Hold a connection for a time, in turn.
		 * @param time how long
		 * @return completed when the hold has ended; cancelling it while it waits in line drops it
		 */
		CompletableFuture<Void> hold(Duration time) {
			Hold hold = new Hold(time.toNanos());
			synchronized (this) {
				if (this.free == 0) {
					this.line.add(hold);
					return hold.done;
				}
				this.free--;
			}
			start(hold);
			return hold.done;
		}

		private void released() {
			Hold next;
			synchronized (this) {
				do {
					next = this.line.poll();
				}
				while (next != null && next.done.isCancelled());
				if (next == null) {
					this.free++;
					return;
				}
			}
			start(next);
		}

		private void start(Hold hold) {
			long start = System.nanoTime();
			Schedulers.parallel().schedule(() -> {
				CapacityController.this.heldNanos.add(System.nanoTime() - start);
				CapacityController.this.completed.increment();
				hold.done.complete(null);
				released();
			}, hold.nanos, TimeUnit.NANOSECONDS);
		}

	}

	private record Hold(long nanos, CompletableFuture<Void> done) {

		Hold(long nanos) {
			this(nanos, new CompletableFuture<>());
		}

	}

}

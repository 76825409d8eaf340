package dev.degradation.sample.capacity;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The shop's capacity-limited routes, as in seed 000's overload test: checkout holds the shop's
 * one connection to its "database" for 20 ms, so the shop completes about 50 checkouts a second
 * whatever it is offered ({@code sample.capacity.connections} gives it a pool of more, each 50 a
 * second more). {@code GET /api/checkout} is core (never in the manifest);
 * {@code GET /api/checkout/suggestions} is degradable (tier best-effort) and uses the same
 * connection. {@code GET /demo/capacity} is the server's own count, for the overload harness.
 */
@RestController
public class CapacityController {

	/** How long a request holds the connection. */
	public static final long WORK_MILLIS = 20;

	private final Semaphore database;

	private final LongAdder completed = new LongAdder();

	private final AtomicInteger working = new AtomicInteger();

	private final LongAdder heldNanos = new LongAdder();

	CapacityController(@Value("${sample.capacity.connections:1}") int connections) {
		this.database = new Semaphore(connections, true);
	}

	@GetMapping("/api/checkout")
	Map<String, Object> checkout() throws InterruptedException {
		work();
		return Map.of("checkout", "confirmed", "source", "live");
	}

	@GetMapping("/api/checkout/suggestions")
	Map<String, Object> suggestions() throws InterruptedException {
		work();
		return Map.of("suggestions", List.of("tea", "kettle"), "source", "live");
	}

	@GetMapping("/demo/capacity")
	Map<String, Object> capacity() {
		long completed = this.completed.sum();
		return Map.of("completed", completed, "working", this.working.get(), "heldMillis",
				(completed > 0) ? this.heldNanos.sum() / completed / 1_000_000.0 : 0);
	}

	private void work() throws InterruptedException {
		this.working.incrementAndGet();
		try {
			this.database.acquire();
			long start = System.nanoTime();
			try {
				TimeUnit.MILLISECONDS.sleep(WORK_MILLIS);
			}
			finally {
				this.heldNanos.add(System.nanoTime() - start);
				this.database.release();
			}
			this.completed.increment();
		}
		finally {
			this.working.decrementAndGet();
		}
	}

}

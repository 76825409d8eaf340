package dev.degradation.client;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.web.reactive.function.client.WebClient;

import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.fixture.ReceivedRequest;

/**
 * A dependency on loopback whose answer the test sets: a status with an optional
 * {@code Retry-After}, given at once or after a delay, or no answer at all (it hangs until
 * closed). Records the requests it gets. The answers are the tests' vocabulary; the dependency is
 * the shared {@link LoopbackDependency}.
 */
final class LoopbackStub implements AutoCloseable {

	private final LoopbackDependency dependency = LoopbackDependency.start();

	final List<HttpExchangeRecord> requests = new CopyOnWriteArrayList<>();

	volatile int status = 200;

	volatile String retryAfter;

	volatile boolean hang;

	/** How many more answers get {@link #status} before the stub answers 200; negative for all. */
	private final AtomicInteger statusAnswers = new AtomicInteger(-1);

	/** How long it takes before it answers: a slow but working dependency. */
	volatile Duration delay = Duration.ZERO;

	LoopbackStub() {
		this.dependency.answer(this::answer);
	}

	/**
	 * Start a stub on a free loopback port, for a test's static field.
	 * @return the running stub
	 */
	static LoopbackStub start() {
		return new LoopbackStub();
	}

	/**
	 * Make one unguarded {@code WebClient} call here. The first request of a JVM loads and starts
	 * Reactor Netty, over a second on a busy machine: longer than the time limits the tests set,
	 * and not what any of them measures.
	 */
	void warmUpReactorNetty() {
		WebClient.create(url()).get().uri("/warm-up").retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
	}

	String url() {
		return this.dependency.url();
	}

	void answer(int status, String retryAfter) {
		this.status = status;
		this.retryAfter = retryAfter;
		this.hang = false;
		this.delay = Duration.ZERO;
		this.statusAnswers.set(-1);
		this.requests.clear();
	}

	/**
	 * Answer with a status a number of times, then 200: a dependency that recovers.
	 */
	void answerThenRecover(int status, String retryAfter, int times) {
		answer(status, retryAfter);
		this.statusAnswers.set(times);
	}

	private Answer answer(ReceivedRequest request) {
		this.requests.add(new HttpExchangeRecord(request.path(), request.method(), request.headers()));
		if (this.hang) {
			return Answer.hang();
		}
		boolean recovered = this.statusAnswers.getAndUpdate((left) -> (left > 0) ? left - 1 : left) == 0;
		Answer answer = Answer.status(recovered ? 200 : this.status).json("{\"source\":\"live\"}");
		if (this.retryAfter != null && !recovered) {
			answer = answer.header("Retry-After", this.retryAfter);
		}
		// The dependency's own slowness; cut short when the stub closes.
		return this.delay.isZero() ? answer : answer.after(this.delay);
	}

	@Override
	public void close() {
		this.dependency.close();
	}

	/**
	 * A request the stub got: its path, its method and its headers (the first value of each,
	 * by lower-case name).
	 */
	record HttpExchangeRecord(String path, String method, Map<String, String> headers) {

		/**
		 * Return the deadline the request carried in the starter's default header.
		 * @return the milliseconds it may take, or {@code null}
		 */
		String deadline() {
			return this.headers.get("x-envoy-expected-rq-timeout-ms");
		}

	}

}

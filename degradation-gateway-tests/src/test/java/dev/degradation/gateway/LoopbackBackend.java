package dev.degradation.gateway;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.fixture.ReceivedRequest;

/**
 * A real backend on a loopback port, behind the gateway under test, whose behaviour the test
 * switches: it answers (200, with its name and {@code "live"}), fails (500), hangs (accepts a
 * request and never answers until it is set healthy again or closed) or stalls (sends the
 * headers of a 200 and the first half of its body, then nothing until it is set healthy again or
 * closed). It counts the requests that reach it, health checks apart, so that a test can tell
 * that the gateway did not call it, and keeps the deadline and simulation headers of the last one.
 * The modes are the tests' vocabulary; the backend is the shared {@link LoopbackDependency}.
 */
final class LoopbackBackend implements AutoCloseable {

	enum Mode {

		HEALTHY, FAILING, HANGING, STALLING

	}

	private final String name;

	private final LoopbackDependency dependency = LoopbackDependency.start();

	private final AtomicInteger hits = new AtomicInteger();

	private volatile Mode mode = Mode.HEALTHY;

	private volatile @Nullable String deadline;

	private volatile @Nullable String simulation;

	private volatile @Nullable String simulationToken;

	private LoopbackBackend(String name) {
		this.name = name;
		this.dependency.answer(this::answer);
	}

	static LoopbackBackend start(String name) {
		return new LoopbackBackend(name);
	}

	/** The URL the gateway's routes point at and the manifest's {@code base_url}. */
	String url() {
		return this.dependency.url();
	}

	String healthUrl() {
		return url() + "/healthz";
	}

	int hits() {
		return this.hits.get();
	}

	/** The deadline header the last request (health checks apart) arrived with, if any. */
	@Nullable String deadline() {
		return this.deadline;
	}

	/** The simulation header the last request (health checks apart) arrived with, if any. */
	@Nullable String simulation() {
		return this.simulation;
	}

	/** The simulation token header the last request (health checks apart) arrived with, if any. */
	@Nullable String simulationToken() {
		return this.simulationToken;
	}

	void set(Mode mode) {
		this.mode = mode;
		if (mode != Mode.HANGING && mode != Mode.STALLING) {
			this.dependency.release();
		}
	}

	private Answer answer(ReceivedRequest request) {
		if (!request.path().equals("/healthz")) {
			this.hits.incrementAndGet();
			this.deadline = request.header("x-envoy-expected-rq-timeout-ms");
			this.simulation = request.header("X-Degradation-Simulate");
			this.simulationToken = request.header("X-Degradation-Simulate-Token");
		}
		Mode current = this.mode;
		if (current == Mode.HANGING) {
			return Answer.hang();
		}
		int status = (current == Mode.FAILING) ? 500 : 200;
		String body = "{\"backend\":\"" + this.name + "\",\"source\":\"" + ((status == 200) ? "live" : "failed")
				+ "\"}";
		Answer answer = Answer.status(status).json(body);
		// The rest never comes: the connection is closed short of the announced length.
		return (current == Mode.STALLING) ? answer.stallAfter(body.getBytes(StandardCharsets.UTF_8).length / 2)
				: answer;
	}

	@Override
	public void close() {
		set(Mode.HEALTHY);
		this.dependency.close();
	}

}

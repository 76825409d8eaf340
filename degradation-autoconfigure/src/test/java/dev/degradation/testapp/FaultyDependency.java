package dev.degradation.testapp;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.fixture.ReceivedRequest;

/**
 * A dependency whose health the test switches: healthy, failing (500), hanging (accepts and
 * never answers), slow (answers after a delay), refusing (nothing listens on the port, so
 * connections are refused) or not serving its health URL (404). The modes are the tests'
 * vocabulary; the dependency is the shared {@link LoopbackDependency}, which keeps its port
 * across modes, so the manifest's health URL stays valid. A change of mode ends a hang or a delay
 * under way.
 */
public final class FaultyDependency implements AutoCloseable {

	/**
	 * How the dependency behaves.
	 */
	public enum Mode {

		HEALTHY, FAILING, HANGING, SLOW, REFUSING, NOT_FOUND

	}

	private static final Answer NOT_FOUND = Answer.status(404).json("{}");

	private final String name;

	private final LoopbackDependency dependency = LoopbackDependency.start();

	private volatile Mode mode = Mode.HEALTHY;

	private volatile Duration slowness = Duration.ofMillis(500);

	private FaultyDependency(String name) {
		this.name = name;
		this.dependency.answer((request) -> answer());
	}

	public static FaultyDependency start(String name) {
		return new FaultyDependency(name);
	}

	public String healthUrl() {
		return this.dependency.url() + "/" + this.name + "/healthz";
	}

	/**
	 * Return the dependency's address, scheme, host and port, as discovery lists an instance.
	 * @return the address
	 */
	public String address() {
		return this.dependency.url();
	}

	public synchronized void set(Mode mode) {
		this.mode = mode;
		this.dependency.release();
		if (mode == Mode.REFUSING) {
			this.dependency.stop();
		}
		else {
			this.dependency.restart();
		}
	}

	public void setSlowness(Duration slowness) {
		this.slowness = slowness;
	}

	public Mode mode() {
		return this.mode;
	}

	/**
	 * Return when each request arrived, in order.
	 * @return the arrival times
	 */
	public List<Instant> requests() {
		return this.dependency.received().stream().map(ReceivedRequest::receivedAt).toList();
	}

	@Override
	public void close() {
		this.dependency.close();
	}

	private Answer answer() {
		return switch (this.mode) {
			case HEALTHY -> LoopbackDependency.HEALTHY;
			case FAILING -> LoopbackDependency.FAILING;
			case HANGING -> Answer.hang();
			case SLOW -> LoopbackDependency.HEALTHY.after(this.slowness);
			case REFUSING -> Answer.status(503).json("{}");
			case NOT_FOUND -> NOT_FOUND;
		};
	}

}

package dev.degradation.sample.containers;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;

/**
 * One of the shop's dependencies as a separate process, run in a container by the container
 * suite: the shared {@link LoopbackDependency} answering its health endpoint and the data
 * endpoints the shop calls, with the answers of the shop's embedded dependencies. Faults come
 * from outside (the container is paused, stopped, started), so the stub itself is always
 * healthy. The fixture needs {@code java.base} only, so that it runs on a runtime cut down by
 * jlink to that module.
 */
public final class StubDependency {

	private static final Map<String, String> ANSWERS = Map.of("/recommendations", "{\"items\":[\"p-2\",\"p-3\"]}",
			"/assignments", "{\"variant\":\"treatment\"}", "/profiles", "{\"profile\":\"outdoor-enthusiast\"}",
			"/healthz", "{\"status\":\"UP\"}");

	private static final Answer NOT_FOUND = Answer.status(404).json("{\"error\":\"not found\"}");

	private static final Answer ACCEPTED = Answer.status(202);

	private StubDependency() {
	}

	/**
	 * Serve on {@code 127.0.0.1:<port>} until the process is stopped.
	 * @param args the port
	 * @throws InterruptedException never: the process ends by a signal
	 */
	public static void main(String[] args) throws InterruptedException {
		int port = Integer.parseInt(args[0]);
		LoopbackDependency dependency = LoopbackDependency.start(port);
		dependency.answer((request) -> {
			String answer = ANSWERS.get(request.path());
			if (request.method().equals("POST") && request.path().equals("/events")) {
				return ACCEPTED;
			}
			return (answer != null) ? Answer.ok(answer) : NOT_FOUND;
		});
		// The container's wait strategy reads this line; it is no report.
		System.out.println("READY on 127.0.0.1:" + port);
		// The dependency's thread is a daemon's: the process lives until it is stopped.
		new CountDownLatch(1).await();
	}

}

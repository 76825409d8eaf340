package dev.degradation.stacks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a caller cannot teach the limit, on WebFlux.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class ReactiveLimitEvidenceTests extends LimitEvidenceTests {

	private static final String SCHEDULE_HOOK = "reactive-limit-evidence-tests";

	/** A deadline longer than the first event's wait for the server, and far shorter than the pause. */
	private static final String DEADLINE_MILLIS = "10";

	/** More tasks than a request of {@code /api/burst} gives Reactor's schedulers. */
	private static final int MOST_TASKS = 100;

	@Test
	void aStreamThatPausesWhileItsCallerReadsKeepsNoTimerBusyWhateverItsDeadline() throws Exception {
		// A caller's short deadline bounds its answer's wait for it too. The first event waited a
		// moment for the server to take it, less than the bound; then the stream has nothing to
		// send and its caller keeps it waiting for nothing: there is nothing to look at, however
		// long the pause. Every task Reactor's schedulers are given meanwhile is counted.
		assertThat(burst().statusCode()).as("the path served once, warm").isEqualTo(200);
		AtomicInteger scheduled = new AtomicInteger();
		Schedulers.onScheduleHook(SCHEDULE_HOOK, (task) -> {
			scheduled.incrementAndGet();
			return task;
		});
		HttpResponse<String> response;
		try {
			response = burst();
		}
		finally {
			Schedulers.resetOnScheduleHook(SCHEDULE_HOOK);
		}
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).endsWith("data:end\n\n");
		// The pause's own delay, and a look or so for each event: a look every few milliseconds of
		// the pause would be hundreds.
		assertThat(scheduled.get()).as("tasks scheduled in %s ms", StackTestApplication.BURST_PAUSE.toMillis())
			.isLessThan(MOST_TASKS);
	}

	@Test
	void anAdmittedAnswerCanStillBeSentFromAFileByTheServer() throws Exception {
		// The answer an admitted exchange writes to is the starter's; a file answer (a static
		// resource, a download) is still sent by the server from the file, not copied through buffers.
		long admitted = admission().admitted();
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/zero-copy"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(admission().admitted()).as("the exchange was admitted").isGreaterThan(admitted);
		assertThat(response.body()).isEqualTo("true");
	}

	private HttpResponse<String> burst() throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/burst"))
				.timeout(Duration.ofSeconds(10))
				.header("x-envoy-expected-rq-timeout-ms", DEADLINE_MILLIS)
				.build(), HttpResponse.BodyHandlers.ofString());
	}

}

package dev.degradation.stacks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.OverloadSignal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Actuator's endpoints wherever Boot lets an application put them on its port (at the root,
 * {@code management.endpoints.web.base-path=/}; the health probes' additional paths, {@code /livez}
 * and {@code /readyz}) stay reachable while admission has no place for anyone else, as they do
 * under {@code /actuator}.
 */
abstract class ReachableControlsTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	OverloadSignal overload;

	@Autowired
	StackTestApplication.Holds holds;

	@AfterEach
	void release() {
		this.holds.reset();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.overload.active().admission().inflight() == 0);
	}

	/**
	 * Return the paths of the controls on the application's port.
	 * @return the paths
	 */
	abstract List<String> controls();

	@Test
	void theControlsStayReachableWhenEveryPlaceIsTaken() throws Exception {
		try (HeldPlaces held = HeldPlaces.hold(this.client, this.port, this.holds, 3)) {
			assertThat(send("/api/core").statusCode()).as("a core request finds no place").isEqualTo(503);
			for (String control : controls()) {
				assertThat(send(control).statusCode()).as(control).isEqualTo(200);
			}
		}
	}

	private HttpResponse<String> send(String path) throws Exception {
		return this.client.send(request(path), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
	}

}

package dev.degradation.stacks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Places in admission held by requests to the test application's {@code /api/hold}, each until
 * {@link StackTestApplication.Holds#reset()}: what the stack tests use to leave no place (or a
 * given number of places) for anyone else. Closing lets them go and checks each was served.
 */
final class HeldPlaces implements AutoCloseable {

	private final StackTestApplication.Holds holds;

	private final List<CompletableFuture<HttpResponse<String>>> held;

	private HeldPlaces(StackTestApplication.Holds holds, List<CompletableFuture<HttpResponse<String>>> held) {
		this.holds = holds;
		this.held = held;
	}

	/**
	 * Hold places until closed, once each request holding one has started.
	 * @param client the client that sends the requests
	 * @param port the application's port
	 * @param holds the application's holds
	 * @param count how many places to hold
	 * @return the held places
	 */
	static HeldPlaces hold(HttpClient client, int port, StackTestApplication.Holds holds, int count) {
		List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			held.add(client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/hold"))
				.timeout(Duration.ofSeconds(20))
				.build(), HttpResponse.BodyHandlers.ofString()));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> holds.started.get() == count);
		return new HeldPlaces(holds, held);
	}

	/** Let the places go: each request that held one is answered as any other. */
	@Override
	public void close() throws Exception {
		this.holds.reset();
		for (CompletableFuture<HttpResponse<String>> answer : this.held) {
			assertThat(answer.get().statusCode()).isEqualTo(200);
		}
	}

}

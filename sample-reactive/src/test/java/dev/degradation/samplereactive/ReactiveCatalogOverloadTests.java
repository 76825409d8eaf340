package dev.degradation.samplereactive;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reactive sample's capacity-limited checkout (the overload harness's twin of the shop's)
 * under admission, as the sample runs: a burst beyond what the one connection serves is served in
 * turn or refused at once with {@code Retry-After}, and no refused request does work. The same
 * application context as {@link ReactiveCatalogApplicationTests}, so that their requests meet one
 * server: refusals written at once on keep-alive connections, beside live calls through a
 * {@code WebClient}, are what left a connection unread on Reactor Netty before 1.3.8
 * (docs/overload.md, "A request without an answer on WebFlux").
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReactiveCatalogOverloadTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Test
	void aBurstOfCheckoutsIsServedOneConnectionAtATimeOrRefusedAtOnceWithRetryAfter() throws Exception {
		long before = capacity("completed");
		List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
		for (int i = 0; i < 60; i++) {
			burst.add(this.http.sendAsync(HttpRequest.newBuilder(uri("/api/checkout")).timeout(Duration.ofSeconds(20)).build(),
					HttpResponse.BodyHandlers.ofString()));
		}
		int live = 0;
		int refused = 0;
		for (CompletableFuture<HttpResponse<String>> answer : burst) {
			HttpResponse<String> response = answer.get(30, TimeUnit.SECONDS);
			if (response.statusCode() == 200) {
				assertThat(response.headers().firstValue("X-Degraded")).isEmpty();
				assertThat(response.body()).contains("\"source\":\"live\"");
				live++;
			}
			else {
				assertThat(response.statusCode()).isEqualTo(503);
				assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
				assertThat(response.headers().firstValue("X-Degraded")).hasValue("true");
				refused++;
			}
		}
		assertThat(live + refused).isEqualTo(60);
		assertThat(live).isPositive();
		// 60 at once, 20 ms each on one connection: beyond the limit's first 20 places, admission
		// refuses; without it every one would wait its turn and be served.
		assertThat(refused).isPositive();
		// Every checkout served held the one connection its 20 ms; none refused did any work.
		long served = live;
		await().atMost(Duration.ofSeconds(10)).until(() -> capacity("completed") - before == served);
		assertThat(capacity("heldMillis")).isGreaterThanOrEqualTo(20);
		// The burst may have raised the shed level (admission saturated); it comes back down once
		// the burst is over, and the sample's other tests, in the same context, find it at 0.
		await().atMost(Duration.ofSeconds(30)).until(() -> field("/actuator/degradation", "level") == 0);
	}

	private long capacity(String field) throws Exception {
		return field("/demo/capacity", field);
	}

	private long field(String path, String field) throws Exception {
		String body = this.http
			.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
		Matcher matcher = Pattern.compile("\"" + field + "\":([0-9]+)").matcher(body);
		assertThat(matcher.find()).as(body).isTrue();
		return Long.parseLong(matcher.group(1));
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

}

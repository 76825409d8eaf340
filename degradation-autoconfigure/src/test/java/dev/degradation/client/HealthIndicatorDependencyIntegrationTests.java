package dev.degradation.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.monitor.DependencyState;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dependency judged by the application's own {@code HealthIndicator} ({@code health_indicator:
 * db}) on a real embedded server: its routes are shed while the indicator is DOWN and served
 * again once it is UP and its window has recovered.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "degradation.manifest=classpath:client/health-indicator-manifest.yaml")
class HealthIndicatorDependencyIntegrationTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	AtomicReference<Status> dbStatus;

	@Test
	void aDependencyJudgedByAHealthIndicatorIsShedWhileItIsDownAndServedOnceItIsUpAgain() throws Exception {
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.engine.dependency("database").state())
				.isEqualTo(DependencyState.HEALTHY));
		assertThat(get("/api/orders")).contains("live");
		this.dbStatus.set(Status.DOWN);
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(get("/api/orders")).contains("degraded"));
		assertThat(this.engine.dependency("database").state()).isEqualTo(DependencyState.FAILED);
		assertThat(this.engine.dependency("database").lastProbe()).satisfies((probe) -> {
			assertThat(probe).isNotNull();
			assertThat(probe.outcome()).isEqualTo("down");
		});
		this.dbStatus.set(Status.UP);
		await().atMost(Duration.ofSeconds(8)).untilAsserted(() -> assertThat(get("/api/orders")).contains("live"));
		assertThat(this.engine.dependency("database").state()).isEqualTo(DependencyState.HEALTHY);
	}

	private String get(String path) throws IOException, InterruptedException {
		return this.http
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
	}

	@UnsecuredTestConfiguration
	static class IndicatorApplication {

		@Bean
		AtomicReference<Status> dbStatus() {
			return new AtomicReference<>(Status.UP);
		}

		/** The application's own indicator, named 'db' as Boot's DataSource one would be. */
		@Bean
		HealthIndicator dbHealthIndicator(AtomicReference<Status> dbStatus) {
			return () -> Health.status(dbStatus.get()).build();
		}

		@Bean
		OrdersController ordersController() {
			return new OrdersController();
		}

	}

	@RestController
	static class OrdersController {

		@GetMapping("/api/orders")
		String orders() {
			return "{\"source\":\"live\"}";
		}

	}

}

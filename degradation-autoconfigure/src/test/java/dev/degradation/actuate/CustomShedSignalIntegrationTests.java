package dev.degradation.actuate;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.ShedDemand;
import dev.degradation.engine.ShedSignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shed signal of the application's own, declared only here as a bean, with a kind the starter
 * has never heard of: it joins the engine, sheds a route, and is counted, listed and shown under
 * its own kind, on a real server, through the real Actuator.
 */
@SpringBootTest(classes = { ShopTestApplication.class, CustomShedSignalIntegrationTests.MaintenanceConfiguration.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation,metrics" })
class CustomShedSignalIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	MaintenanceSignal maintenance;

	@AfterEach
	void reset() {
		this.engine.reset();
	}

	@Test
	void aMaintenanceSignalShedsItsRouteAndIsCountedListedAndShownUnderItsOwnKind() throws Exception {
		assertThat(new RawHttp(this.port).send("GET", "/api/recommendations").degraded()).isFalse();
		this.maintenance.start("catalog-migration");
		this.engine.evaluate();

		Response shed = new RawHttp(this.port).send("GET", "/api/recommendations");
		assertThat(shed.status()).isEqualTo(200);
		assertThat(shed.degraded()).isTrue();
		assertThat(shed.header("X-Degradation-Reason")).isEqualTo("maintenance:catalog-migration");
		assertThat(shed.body()).contains("\"source\":\"degraded\"");
		assertThat(new RawHttp(this.port).send("GET", "/api/products").degraded()).isFalse();

		JsonNode fallbacks = new JsonHttp(this.port)
			.get("/actuator/metrics/degradation.fallbacks?tag=cause:maintenance&tag=route:/api/recommendations")
			.json();
		assertThat(fallbacks.get("measurements").get(0).get("value").asDouble()).isEqualTo(1.0);

		JsonNode status = new JsonHttp(this.port).get("/actuator/degradation").json();
		assertCarriesTheSignal(status);
		assertThat(status.get("maintenance").get("window").asString()).isEqualTo("catalog-migration");

		// What the status page draws is the answer at its data source, read as the page does.
		Response page = new RawHttp(this.port).send("GET", "/actuator/degradation/ui", "Accept: text/html");
		assertThat(page.status()).isEqualTo(200);
		Matcher source = Pattern.compile("data-source=\"([^\"]+)\"").matcher(page.body());
		assertThat(source.find()).isTrue();
		String data = java.net.URI.create("http://localhost/actuator/degradation/ui").resolve(source.group(1)).getPath();
		Response pageData = new RawHttp(this.port).send("GET", data, "Accept: application/json");
		assertThat(pageData.status()).isEqualTo(200);
		assertCarriesTheSignal(JSON.readTree(pageData.body()));
	}

	private static void assertCarriesTheSignal(JsonNode status) {
		JsonNode signal = status.get("signals").get("maintenance");
		assertThat(signal.get("kind").asString()).isEqualTo("maintenance");
		assertThat(signal.get("routes").asInt()).isEqualTo(1);
		assertThat(signal.get("reason").asString()).isEqualTo("planned maintenance: catalog-migration");
		JsonNode route = routeOf(status, "/api/recommendations");
		assertThat(route.get("shed").asBoolean()).isTrue();
		assertThat(route.get("shedReason").asString()).isEqualTo("maintenance:catalog-migration");
		assertThat(route.get("heldBy").get(0).get("signal").asString()).isEqualTo("maintenance");
	}

	private static JsonNode routeOf(JsonNode status, String path) {
		for (JsonNode tier : status.get("tiers")) {
			for (JsonNode route : tier.get("routes")) {
				if (route.get("path").asString().equals(path)) {
					return route;
				}
			}
		}
		throw new AssertionError("No route " + path + " in " + status);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class MaintenanceConfiguration {

		@Bean
		MaintenanceSignal maintenanceSignal(DegradationManifest manifest) {
			return new MaintenanceSignal(manifest, "GET", "/api/recommendations");
		}

	}

	/**
	 * Sheds one route while a maintenance window is open: what an application might write for
	 * a database migration, knowing nothing of the starter's own signals.
	 */
	static final class MaintenanceSignal implements ShedSignal {

		private final String method;

		private final String path;

		private volatile DegradationManifest manifest;

		private volatile String window;

		MaintenanceSignal(DegradationManifest manifest, String method, String path) {
			this.manifest = manifest;
			this.method = method;
			this.path = path;
		}

		void start(String window) {
			this.window = window;
		}

		@Override
		public String name() {
			return "maintenance";
		}

		@Override
		public String kind() {
			return "maintenance";
		}

		@Override
		public ShedDemand demand(Instant now) {
			String window = this.window;
			if (window == null) {
				return ShedDemand.NONE;
			}
			List<Route> routes = this.manifest.routes();
			for (int index = 0; index < routes.size(); index++) {
				Route route = routes.get(index);
				if (route.method().equals(this.method) && route.path().equals(this.path)) {
					return ShedDemand.routes(Map.of(index, "maintenance:" + window),
							"planned maintenance: " + window);
				}
			}
			return ShedDemand.NONE;
		}

		@Override
		public Map<String, Object> sections(DegradationState state) {
			String window = this.window;
			return (window != null) ? Map.of("maintenance", Map.of("window", window)) : Map.of();
		}

		@Override
		public void reset() {
			this.window = null;
		}

		@Override
		public void manifestChanged(DegradationManifest manifest) {
			this.manifest = manifest;
		}

	}

}

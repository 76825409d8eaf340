package dev.degradation.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code walk} against a WebFlux service on a real Reactor Netty server, as
 * {@link ManifestWalkIntegrationTests} walks the servlet sample: every route degrades as declared,
 * with only the service's address; a route that matches no handler of the service fails the walk
 * (the endpoint knows which routes WebFlux's handlers serve); a read-only endpoint is refused with
 * why.
 */
class ReactiveManifestWalkIntegrationTests {

	@Test
	void everyRouteOfARunningWebFluxServiceDegradesAsDeclared() {
		try (ConfigurableApplicationContext shop = start("classpath:walk/reactive-shop.yaml")) {
			Walk walk = run("walk", "--base-url", baseUrl(shop));
			assertThat(walk.status()).as(walk.out()).isEqualTo(ManifestCli.VALID);
			assertThat(walk.out()).contains("against " + baseUrl(shop) + "/: ")
				.contains("every route degrades as declared");
		}
	}

	@Test
	void aRouteThatMatchesNoHandlerOfTheWebFluxServiceFailsTheWalk() {
		try (ConfigurableApplicationContext shop = start("classpath:walk/reactive-typo.yaml")) {
			Walk walk = run("walk", "--base-url", baseUrl(shop));
			assertThat(walk.status()).as(walk.out()).isEqualTo(ManifestCli.INVALID);
			assertThat(walk.out())
				.containsOnlyOnce("GET /api/recomendations: matches no handler of the service, at any level")
				.contains("1 failed");
		}
	}

	@Test
	void aReadOnlyEndpointIsRefusedWithWhy() {
		try (ConfigurableApplicationContext shop = start("classpath:walk/reactive-shop.yaml",
				"management.endpoint.degradation.access=read-only")) {
			Walk walk = run("walk", "--base-url", baseUrl(shop));
			assertThat(walk.status()).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
			assertThat(walk.out()).contains("the endpoint is read-only")
				.contains("management.endpoint.degradation.access=unrestricted");
		}
	}

	private static ConfigurableApplicationContext start(String manifest, String... properties) {
		return new SpringApplicationBuilder(ReactiveShop.class)
			.properties("spring.main.web-application-type=reactive", "server.address=127.0.0.1", "server.port=0",
					"degradation.manifest=" + manifest, "degradation.probes.enabled=false", "degradation.verify=warn",
					"management.endpoints.web.exposure.include=degradation",
					"management.endpoint.degradation.access=unrestricted")
			.properties(properties)
			.run();
	}

	private static String baseUrl(ConfigurableApplicationContext shop) {
		return "http://127.0.0.1:" + ((WebServerApplicationContext) shop).getWebServer().getPort();
	}

	private static Walk run(String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ManifestCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8));
		return new Walk(status, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
	}

	private record Walk(int status, String out) {

	}

	/**
	 * A small shop served by WebFlux.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(ReactiveShop.ShopController.class)
	static class ReactiveShop {

		@RestController
		static class ShopController {

			@GetMapping("/api/products")
			Mono<List<String>> products() {
				return Mono.just(List.of("kettle"));
			}

			@PostMapping("/api/analytics/track")
			Mono<ResponseEntity<Void>> track(@RequestBody Map<String, Object> event) {
				return Mono.just(ResponseEntity.accepted().build());
			}

			@GetMapping("/api/recommendations")
			Mono<Map<String, Object>> recommendations() {
				return Mono.just(Map.of("items", List.of("p-1"), "source", "live"));
			}

			@GetMapping("/api/products/{id}/reviews")
			Mono<Map<String, Object>> reviews(@PathVariable String id) {
				return Mono.just(Map.of("reviews", List.of("great"), "source", "live"));
			}

		}

	}

}

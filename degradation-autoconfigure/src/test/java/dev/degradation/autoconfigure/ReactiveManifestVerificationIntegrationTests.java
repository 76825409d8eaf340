package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The manifest's routes checked against a WebFlux application's handlers (annotated request
 * mappings and functional routes) on a real Reactor Netty server, as
 * {@link ManifestVerificationIntegrationTests} checks them against Spring MVC's: a route no handler
 * serves is warned about by default and refused under {@code degradation.verify=strict}, with its
 * position in the manifest.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReactiveManifestVerificationIntegrationTests {

	private static final String PROBLEM = "classpath:manifests/reactive-typo.yaml:13:9: tiers.enhanced.routes[2]: "
			+ "GET /api/fn/extra matches no handler of the application, so it would never be shed";

	@Test
	void byDefaultAnUnmatchedRouteIsWarnedAboutWithItsPosition(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("manifests/reactive-typo.yaml", "warn")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).containsOnlyOnce(PROBLEM)
			.contains("WARN")
			.contains("set 'degradation.verify=strict' to refuse to start")
			.doesNotContain("/api/annotated/{id} matches no handler")
			.doesNotContain("GET /api/fn/extras matches no handler");
	}

	@Test
	void underStrictVerificationAnUnmatchedRouteFailsStartupWithItsPositionInTheReport(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("manifests/reactive-typo.yaml", "strict"))
			.isInstanceOf(InvalidManifestException.class);
		assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START").contains(PROBLEM);
	}

	@Test
	void routesServedByFunctionalEndpointsStartUnderStrictVerificationAndAreShed(CapturedOutput output)
			throws Exception {
		try (ConfigurableApplicationContext context = start("manifests/functional.yaml", "strict")) {
			assertThat(context.isActive()).isTrue();
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			assertThat(new RawHttp(port).send("GET", "/api/fn/extras").degraded()).isFalse();
			context.getBean(DegradationEngine.class).simulate(1);
			RawHttp.Response shed = new RawHttp(port).send("GET", "/api/fn/extras");
			assertThat(shed.degraded()).isTrue();
			assertThat(shed.body()).contains("\"source\":\"degraded\"");
			assertThat(new RawHttp(port).send("GET", "/api/fn/items/3").status()).isEqualTo(204);
		}
		assertThat(output.getOut()).doesNotContain("matches no handler");
	}

	@Test
	void aRouteThatWouldCatchTheRequestsOfAMoreSpecificCoreHandlerFailsStrictVerification(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("manifests/shadow.yaml", "strict"))
			.isInstanceOf(InvalidManifestException.class);
		assertThat(output.getOut() + output.getErr()).contains("classpath:manifests/shadow.yaml:5:9: "
				+ "tiers.enhanced.routes[0]: GET /api/catalog/{id}/reviews also matches /api/catalog/featured/reviews, "
				+ "which the application sends to ");
	}

	private ConfigurableApplicationContext start(String manifest, String verify) {
		return new SpringApplicationBuilder(ReactiveApplication.class)
			.properties("spring.main.web-application-type=reactive", "server.port=0",
					"degradation.manifest=classpath:" + manifest, "degradation.probes.enabled=false",
					"degradation.verify=" + verify)
			.run();
	}

	@UnsecuredTestConfiguration
	static class ReactiveApplication {

		@Bean
		RouterFunction<ServerResponse> extras() {
			return RouterFunctions.route()
				.GET("/api/fn/extras",
						(request) -> ServerResponse.ok()
							.contentType(MediaType.APPLICATION_JSON)
							.bodyValue("{\"extras\":[1],\"source\":\"live\"}"))
				.path("/api/fn", (builder) -> builder.GET("/items/{id}", (request) -> ServerResponse.ok().build()))
				.GET("/fn/banner.html", (request) -> ServerResponse.ok().bodyValue("<p>Today: 10% off</p>"))
				.build();
		}

		@Bean
		CatalogController catalogController() {
			return new CatalogController();
		}

	}

	@RestController
	static class CatalogController {

		@GetMapping("/api/annotated/{id}")
		Mono<String> annotated(@PathVariable String id) {
			return Mono.just("annotated " + id);
		}

		@GetMapping("/api/catalog/featured/reviews")
		String featured() {
			return "featured";
		}

		@GetMapping("/api/catalog/{id}/reviews")
		String reviews(@PathVariable String id) {
			return "reviews of " + id;
		}

	}

}

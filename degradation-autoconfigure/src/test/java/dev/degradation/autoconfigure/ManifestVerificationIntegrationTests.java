package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.handler.ManifestVerification;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.ShopTestApplication;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A manifest route that matches no controller of a real application: warned about by default,
 * refused under {@code degradation.verify=strict}, with its position in the manifest.
 */
@ExtendWith(OutputCaptureExtension.class)
class ManifestVerificationIntegrationTests {

	private static final String PROBLEM = "classpath:manifests/typo.yaml:8:9: tiers.enhanced.routes[1]: "
			+ "GET /api/recomendations/top matches no handler of the application, so it would never be shed";

	@Test
	void byDefaultAnUnmatchedRouteIsWarnedAboutWithItsPosition(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("degradation.verify=warn")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).containsOnlyOnce(PROBLEM)
			.contains("WARN")
			.contains("set 'degradation.verify=strict' to refuse to start");
	}

	@Test
	void underStrictVerificationAnUnmatchedRouteFailsStartupWithItsPositionInTheReport(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("degradation.verify=strict"))
			.isInstanceOf(InvalidManifestException.class);
		assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START").contains(PROBLEM);
	}

	@Test
	void aManifestWhoseRoutesAllMatchStartsUnderStrictVerificationWithoutWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ShopTestApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/shop.yaml",
					"degradation.probes.enabled=false", "degradation.verify=strict")
			.run()) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).doesNotContain("matches no handler");
	}

	@Test
	void aRouteThatWouldCatchTheRequestsOfAMoreSpecificCoreHandlerFailsStrictVerification(CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(ShopTestApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/shadow.yaml",
					"degradation.probes.enabled=false", "degradation.verify=strict")
			.run()).isInstanceOf(InvalidManifestException.class);
		assertThat(output.getOut() + output.getErr()).contains("classpath:manifests/shadow.yaml:5:9: "
				+ "tiers.enhanced.routes[0]: GET /api/catalog/{id}/reviews also matches /api/catalog/featured/reviews, "
				+ "which the application sends to ");
	}

	@Test
	void verificationCanBeSwitchedOff(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("degradation.verify=off")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).doesNotContain("matches no handler");
	}

	@Test
	void routesServedByFunctionalEndpointsStartUnderStrictVerificationAndAreShed(CapturedOutput output)
			throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(FunctionalApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/functional.yaml",
					"degradation.probes.enabled=false", "degradation.verify=strict")
			.run()) {
			assertThat(context.isActive()).isTrue();
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			assertThat(new RawHttp(port).send("GET", "/api/fn/extras").degraded()).isFalse();
			context.getBean(DegradationEngine.class).simulate(1);
			RawHttp.Response shed = new RawHttp(port).send("GET", "/api/fn/extras");
			assertThat(shed.degraded()).isTrue();
			assertThat(shed.body()).contains("\"source\":\"degraded\"");
			RawHttp.Response html = new RawHttp(port).send("GET", "/fn/banner.html");
			assertThat(html.header("Content-Type")).isEqualTo("text/html;charset=UTF-8");
			assertThat(html.body()).isEqualTo("<p>No banner today</p>");
		}
		assertThat(output.getOut()).doesNotContain("matches no handler");
	}

	@Test
	void aFullApplicationWithNoHandlerOfTheManifestIsWarnedAboutAsWarnPromises(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(FunctionalApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/shop.yaml",
					"degradation.probes.enabled=false")
			.run()) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).containsPattern("WARN .*ManifestVerification")
			.contains("GET /api/recommendations matches no handler")
			.contains("no route of the manifest matches a handler of this application")
			.doesNotContain("test slice");
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(FunctionalApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/shop.yaml",
					"degradation.probes.enabled=false", "degradation.verify=strict")
			.run()).isInstanceOf(InvalidManifestException.class);
	}

	private ConfigurableApplicationContext start(String verify) {
		return new SpringApplicationBuilder(ShopTestApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/typo.yaml",
					"degradation.probes.enabled=false", verify)
			.run();
	}

	@UnsecuredTestConfiguration
	static class FunctionalApplication {

		@Bean
		RouterFunction<ServerResponse> extras() {
			return RouterFunctions.route()
				.GET("/api/fn/extras", (request) -> ServerResponse.ok().body("{\"extras\":[1],\"source\":\"live\"}"))
				.path("/api/fn", (builder) -> builder.GET("/items/{id}", (request) -> ServerResponse.ok().build()))
				.GET("/fn/banner.html", (request) -> ServerResponse.ok().body("<p>Today: 10% off</p>"))
				.build();
		}

		@Bean
		OupsController oupsController() {
			return new OupsController();
		}

	}

	@RestController
	static class OupsController {

		@GetMapping("/oups")
		String oups() {
			throw new IllegalStateException("Expected: controller used to showcase what happens when an exception is thrown");
		}

	}

}

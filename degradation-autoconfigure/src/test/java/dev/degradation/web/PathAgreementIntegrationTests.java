package dev.degradation.web;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter and Spring MVC must agree on which route a request is: for every variant of a
 * degradable path, the request is degraded when its tier is shed exactly when, live, it reaches
 * the degradable handler. Each variant is sent byte for byte to a real Tomcat, once live and once
 * shed.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=health,degradation" })
class PathAgreementIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@AfterEach
	void stopSimulation() {
		this.engine.stopSimulation();
	}

	static Stream<Arguments> variants() {
		return Stream.of(
				// target, the handler of the degradable route, whether Tomcat and MVC route it there
				// (Spring MVC matches the raw URI: '..', '.' and '//' are not normalized away)
				Arguments.of("/api/recommendations", "recommendations", true),
				Arguments.of("/api/recommendations?page=2", "recommendations", true),
				Arguments.of("/api/recommendations/", "recommendations", false),
				Arguments.of("/api/recommendations;jsessionid=abc", "recommendations", true),
				Arguments.of("/api;v=1/recommendations", "recommendations", true),
				Arguments.of("/api//recommendations", "recommendations", false),
				Arguments.of("//api/recommendations", "recommendations", false),
				Arguments.of("/api/recommendation%73", "recommendations", true),
				Arguments.of("/api/%72ecommendations", "recommendations", true),
				Arguments.of("/API/recommendations", "recommendations", false),
				Arguments.of("/api/Recommendations", "recommendations", false),
				Arguments.of("/api/x/../recommendations", "recommendations", false),
				Arguments.of("/api/./recommendations", "recommendations", false),
				Arguments.of("/api/%2e%2e/api/recommendations", "recommendations", false),
				Arguments.of("/api/recommendations%2F", "recommendations", false),
				Arguments.of("/api/recommendations%20", "recommendations", false),
				Arguments.of("/api/catalog/42/reviews", "reviews", true),
				Arguments.of("/api/catalog/4%2F2/reviews", "reviews", false),
				Arguments.of("/api/catalog/a%20b/reviews", "reviews", true),
				Arguments.of("/api/catalog/42;x=1/reviews", "reviews", true),
				Arguments.of("/api/catalog//reviews", "reviews", false),
				Arguments.of("/api/catalog/42/reviews/", "reviews", false));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("variants")
	void filterDegradesExactlyTheRequestsMvcRoutesToTheDegradableHandler(String target, String handler,
			boolean expectedToReachHandler) throws IOException {
		this.engine.stopSimulation();
		Response live = http().send("GET", target);
		boolean reachedHandler = live.status() == 200 && live.body().contains("\"handler\":\"" + handler + "\"");
		// Pinned so that the test notices when Tomcat or MVC changes how it routes a variant.
		assertThat(reachedHandler).as("live request reaches the %s handler", handler)
			.isEqualTo(expectedToReachHandler);
		this.engine.simulate(2);
		Response shed = http().send("GET", target);
		assertThat(shed.degraded()).as("degraded while shed; live it answered %s %s", live.status(), live.body())
			.isEqualTo(reachedHandler);
		if (!reachedHandler) {
			assertThat(shed.status()).isEqualTo(live.status());
			assertThat(shed.body()).doesNotContain("\"source\":\"degraded\"");
		}
	}

	@Test
	void variantsCoverBothRequestsThatReachTheHandlerAndRequestsThatDoNot() {
		List<Object> expectations = new ArrayList<>();
		variants().forEach((arguments) -> expectations.add(arguments.get()[2]));
		assertThat(expectations).contains(true, false);
	}

	private RawHttp http() {
		return new RawHttp(this.port);
	}

}

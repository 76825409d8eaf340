package dev.degradation.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.SwitchOverride;
import dev.degradation.engine.SwitchSignal;
import dev.degradation.engine.SwitchState;
import dev.degradation.manifest.Route;
import dev.degradation.testapp.OneSwitchSecuredShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shop whose Spring Security rules let an on-call role switch one tier only
 * ({@code /actuator/degradation/switches/best-effort}): no form of a URL, query or body lets that
 * role switch another tier, nor remove another tier's override, since Spring Security and the
 * write check read the same path.
 */
@SpringBootTest(classes = OneSwitchSecuredShopTestApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class OneSwitchSecurityIntegrationTests {

	private static final String ONCALL = "Basic "
			+ Base64.getEncoder().encodeToString("oncall:secret".getBytes(StandardCharsets.UTF_8));

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	SwitchSignal switches;

	@AfterEach
	void reset() {
		this.engine.reset();
	}

	@Test
	void theOnCallRoleSwitchesItsOneTier() throws Exception {
		assertThat(send("POST", "/actuator/degradation/switches/best-effort", "{\"state\": \"off\"}").statusCode())
			.isEqualTo(200);
		this.engine.evaluate();
		assertThat(this.engine.state().shedCause(index("best-effort"))).isEqualTo("switch:best-effort");
		assertThat(send("POST", "/actuator/degradation/switches/enhanced", "{\"state\": \"off\"}").statusCode())
			.isEqualTo(403);
	}

	@Test
	void noFormOfAWriteLetsTheOnCallRoleSwitchAnotherTier() throws Exception {
		List<String[]> forms = List.of(new String[] { "/actuator/degradation/switches/enhanced", "" },
				new String[] { "/actuator/degradation/switches/%65nhanced", "" },
				new String[] { "/actuator/degradation/switches/enhanced/", "" },
				new String[] { "/actuator/degradation/switches;a=b/enhanced", "" },
				new String[] { "/actuator/degradation/switches/best-effort;x=/../enhanced", "" },
				new String[] { "/actuator/degradation/switches/best-effort/../enhanced", "" },
				new String[] { "/actuator/degradation/switches/best-effort%2F..%2Fenhanced", "" },
				new String[] { "/actuator/degradation/switches//enhanced", "" },
				new String[] { "/actuator/degradation/%73witches/best-effort", ", \"name\": \"enhanced\"" },
				new String[] { "/actuator/degradation/switches/best-effort", ", \"name\": \"enhanced\"" },
				new String[] { "/actuator/degradation/switches/best-effort?name=enhanced", "" },
				new String[] { "/actuator/degradation/switches/best-effort", ", \"section\": \"switches\"" },
				new String[] { "/actuator/degradation/SWITCHES/enhanced", "" },
				new String[] { "/act%75ator/degradation/switches/enhanced", "" });
		SoftAssertions softly = new SoftAssertions();
		for (String[] form : forms) {
			this.engine.reset();
			HttpResponse<String> post = send("POST", form[0], "{\"state\": \"off\"" + form[1] + "}");
			this.engine.evaluate();
			softly.assertThat(this.engine.state().shedCause(index("enhanced")))
				.as("POST %s %s -> %d %s", form[0], form[1], post.statusCode(), post.body())
				.isNull();
			softly.assertThat(post.statusCode()).as("POST %s %s", form[0], form[1]).isNotEqualTo(200);
		}
		for (String[] form : forms) {
			this.engine.reset();
			this.switches.override("enhanced", SwitchState.OFF, null, "admin", this.engine.clock().instant());
			HttpResponse<String> delete = send("DELETE", form[0], null);
			this.engine.evaluate();
			softly.assertThat(this.switches.overrides())
				.as("DELETE %s -> %d %s", form[0], delete.statusCode(), delete.body())
				.extracting(SwitchOverride::name)
				.contains("enhanced");
		}
		softly.assertAll();
	}

	private int index(String tier) {
		Route first = this.engine.manifest()
			.tiers()
			.stream()
			.filter((candidate) -> candidate.name().equals(tier))
			.findFirst()
			.orElseThrow()
			.routes()
			.get(0);
		return this.engine.manifest().routes().indexOf(first);
	}

	private HttpResponse<String> send(String method, String path, String json) throws Exception {
		return this.client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.header("Authorization", ONCALL)
			.header("Content-Type", "application/json")
			.method(method, (json != null) ? HttpRequest.BodyPublishers.ofString(json)
					: HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}

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
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shop whose Spring Security rules let an on-call role switch one tier only
 * ({@code /actuator/degradation/switches/best-effort}): no form of a URL, query or body lets that
 * role switch another tier, since Spring Security and the write check read the same path.
 */
@SpringBootTest(classes = OneSwitchSecurityIntegrationTests.OneSwitchShop.class,
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

	@AfterEach
	void reset() {
		this.engine.reset();
	}

	@Test
	void theOnCallRoleSwitchesItsOneTier() throws Exception {
		assertThat(send("POST", "/actuator/degradation/switches/best-effort", "{\"state\": \"off\"}").statusCode())
			.isEqualTo(200);
		assertThat(this.engine.state().shedCause(this.engine.manifest().routes().indexOf(route("best-effort"))))
			.isEqualTo("switch:best-effort");
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
			for (String method : List.of("POST", "DELETE")) {
				this.engine.reset();
				HttpResponse<String> response = send(method, form[0], "{\"state\": \"off\"" + form[1] + "}");
				softly.assertThat(this.engine.state().shedCause(this.engine.manifest().routes().indexOf(route("enhanced"))))
					.as("%s %s %s -> %d %s", method, form[0], form[1], response.statusCode(), response.body())
					.isNull();
				softly.assertThat(response.statusCode()).as("%s %s %s", method, form[0], form[1]).isNotEqualTo(200);
			}
		}
		softly.assertAll();
	}

	private dev.degradation.manifest.Route route(String tier) {
		return this.engine.manifest()
			.tiers()
			.stream()
			.filter((candidate) -> candidate.name().equals(tier))
			.findFirst()
			.orElseThrow()
			.routes()
			.get(0);
	}

	private HttpResponse<String> send(String method, String path, String json) throws Exception {
		return this.client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.header("Authorization", ONCALL)
			.header("Content-Type", "application/json")
			.method(method, "DELETE".equals(method) ? HttpRequest.BodyPublishers.noBody()
					: HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * The shop with its Actuator open to read, and one switch open to the on-call role.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(ShopTestApplication.ShopController.class)
	static class OneSwitchShop {

		@Bean
		SecurityFilterChain actuatorSecurityFilterChain(HttpSecurity http) {
			return http
				.authorizeHttpRequests((requests) -> requests
					.requestMatchers(HttpMethod.GET, "/actuator/**")
					.permitAll()
					.requestMatchers("/actuator/degradation/switches/best-effort")
					.hasRole("ONCALL")
					.requestMatchers("/actuator/**")
					.denyAll()
					.anyRequest()
					.permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("oncall").password("{noop}secret").roles("ONCALL").build());
		}

	}

}

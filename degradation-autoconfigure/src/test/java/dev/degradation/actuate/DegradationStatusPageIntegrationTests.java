package dev.degradation.actuate;

import java.util.Base64;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.JsonHttp.Answer;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.RawHttp.Response;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live status page at {@code /actuator/degradation/ui}: served by the endpoint on a real
 * server, from the jar, with the endpoint's base path and security, read-only, and off when
 * {@code degradation.ui.enabled=false}. What it shows is proved in a browser
 * ({@code StatusPageBrowserIT} in the sample).
 */
class DegradationStatusPageIntegrationTests {

	private static final String MANIFEST = "degradation.manifest=classpath:manifests/shop.yaml";

	@Nested
	@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { MANIFEST, "degradation.probes.enabled=false",
					"management.endpoints.web.exposure.include=degradation", "degradation.ui.refresh-interval=1500ms" })
	class WhenExposed {

		@LocalServerPort
		int port;

		@Test
		void thePageIsServedAsHtmlThatReadsTheEndpointAtTheConfiguredInterval() throws Exception {
			Response page = new RawHttp(this.port).send("GET", "/actuator/degradation/ui", "Accept: text/html");
			assertThat(page.status()).isEqualTo(200);
			assertThat(page.header("Content-Type")).startsWith("text/html");
			assertThat(page.body()).contains("<title>Degradation status</title>", "data-refresh-ms=\"1500\"",
					"data-source=\"../degradation\"", "src=\"ui/status.js\"", "href=\"ui/status.css\"");
		}

		@Test
		void itsScriptAndStyleSheetAreServedFromTheJarWithTheirTypes() throws Exception {
			Response script = new RawHttp(this.port).send("GET", "/actuator/degradation/ui/status.js", "Accept: */*");
			assertThat(script.status()).isEqualTo(200);
			assertThat(script.header("Content-Type")).startsWith("text/javascript");
			assertThat(script.body()).contains("fetch(source");
			Response css = new RawHttp(this.port).send("GET", "/actuator/degradation/ui/status.css",
					"Accept: text/css,*/*;q=0.1");
			assertThat(css.status()).isEqualTo(200);
			assertThat(css.header("Content-Type")).startsWith("text/css");
		}

		@Test
		void thePageFetchesNothingFromOutsideTheService() throws Exception {
			RawHttp http = new RawHttp(this.port);
			for (String path : new String[] { "ui", "ui/status.js", "ui/status.css" }) {
				String body = http.send("GET", "/actuator/degradation/" + path, "Accept: */*").body();
				assertThat(body).as(path).doesNotContainPattern("(?i)(https?:)?//[a-z0-9]").doesNotContain("@import");
			}
		}

		@Test
		void anyOtherPathUnderTheEndpointIsNotFound() throws Exception {
			RawHttp http = new RawHttp(this.port);
			assertThat(http.send("GET", "/actuator/degradation/dashboard", "Accept: */*").status()).isEqualTo(404);
			assertThat(http.send("GET", "/actuator/degradation/ui/app.js", "Accept: */*").status()).isEqualTo(404);
			assertThat(http.send("GET", "/actuator/degradation/other/status.js", "Accept: */*").status())
				.isEqualTo(404);
		}

		@Test
		void theEndpointsJsonIsUnchanged() throws Exception {
			Response json = new RawHttp(this.port).send("GET", "/actuator/degradation", "Accept: application/json");
			assertThat(json.status()).isEqualTo(200);
			assertThat(json.header("Content-Type")).contains("json");
			assertThat(json.body()).startsWith("{").contains("\"level\":0,").contains("\"tiers\":[");
		}

	}

	@Nested
	@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { MANIFEST, "degradation.probes.enabled=false",
					"management.endpoints.web.exposure.include=degradation",
					"management.endpoints.web.base-path=/manage" })
	class UnderAnotherBasePath {

		@LocalServerPort
		int port;

		@Test
		void thePageFollowsTheActuatorsBasePath() throws Exception {
			RawHttp http = new RawHttp(this.port);
			assertThat(http.send("GET", "/manage/degradation/ui", "Accept: text/html").status()).isEqualTo(200);
			Response slash = http.send("GET", "/manage/degradation/ui/", "Accept: text/html");
			assertThat(slash.status()).isEqualTo(302);
			assertThat(slash.header("Location")).isEqualTo("../ui");
			assertThat(http.send("GET", "/actuator/degradation/ui", "Accept: text/html").status()).isEqualTo(404);
		}

	}

	@Nested
	@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { MANIFEST, "degradation.probes.enabled=false",
					"management.endpoints.web.exposure.include=degradation",
					"management.endpoint.degradation.access=unrestricted", "management.endpoints.web.base-path=/manage",
					"management.endpoints.web.path-mapping.degradation=brownout" })
	class UnderAPathMapping {

		@LocalServerPort
		int port;

		@Test
		void thePageAndTheWriteCheckFollowTheEndpointsMappedPath() throws Exception {
			RawHttp http = new RawHttp(this.port);
			assertThat(http.send("GET", "/manage/brownout/ui", "Accept: text/html").status()).isEqualTo(200);
			Response slash = http.send("GET", "/manage/brownout/ui/", "Accept: text/html");
			assertThat(slash.status()).isEqualTo(302);
			assertThat(slash.header("Location")).isEqualTo("../ui");
			Answer write = new JsonHttp(this.port).post("/manage/brownout/switches/best-effort",
					"{\"state\": \"off\", \"name\": \"enhanced\"}");
			assertThat(write.status()).isEqualTo(400);
			assertThat(write.json().get("message").asString()).contains("'name' is not taken in the body");
		}

	}

	@Nested
	@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { MANIFEST, "degradation.probes.enabled=false",
					"management.endpoints.web.exposure.include=degradation", "management.server.port=0" })
	class OnASeparateManagementPort {

		@LocalServerPort
		int port;

		@LocalManagementPort
		int managementPort;

		@Test
		void thePageIsServedWhereTheEndpointIs() throws Exception {
			assertThat(new RawHttp(this.managementPort).send("GET", "/actuator/degradation/ui", "Accept: text/html")
				.status()).isEqualTo(200);
			assertThat(new RawHttp(this.managementPort).send("GET", "/actuator/degradation/ui/", "Accept: text/html")
				.status()).isEqualTo(302);
			assertThat(new RawHttp(this.port).send("GET", "/actuator/degradation/ui/", "Accept: text/html").status())
				.isEqualTo(404);
			assertThat(new RawHttp(this.port).send("GET", "/actuator/degradation/ui", "Accept: text/html").status())
				.isEqualTo(404);
		}

	}

	@Nested
	@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { MANIFEST, "degradation.probes.enabled=false",
					"management.endpoints.web.exposure.include=degradation", "degradation.ui.enabled=false" })
	class WhenTurnedOff {

		@LocalServerPort
		int port;

		@Test
		void thePageIsNotFoundAndTheJsonStays() throws Exception {
			RawHttp http = new RawHttp(this.port);
			assertThat(http.send("GET", "/actuator/degradation/ui", "Accept: text/html").status()).isEqualTo(404);
			assertThat(http.send("GET", "/actuator/degradation/ui/", "Accept: text/html").status()).isEqualTo(404);
			assertThat(http.send("GET", "/actuator/degradation/ui/status.js", "Accept: */*").status())
				.isEqualTo(404);
			assertThat(http.send("GET", "/actuator/degradation", "Accept: application/json").status())
				.isEqualTo(200);
		}

	}

	@Nested
	@SpringBootTest(classes = OperatorSecuredShop.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { MANIFEST, "degradation.probes.enabled=false",
					"management.endpoints.web.exposure.include=degradation" })
	class WhenTheEndpointIsSecured {

		@LocalServerPort
		int port;

		@Test
		void thePageHasTheEndpointsSecurity() throws Exception {
			RawHttp http = new RawHttp(this.port);
			assertThat(http.send("GET", "/actuator/degradation", "Accept: application/json").status())
				.isEqualTo(401);
			assertThat(http.send("GET", "/actuator/degradation/ui", "Accept: text/html").status()).isEqualTo(401);
			assertThat(http.send("GET", "/actuator/degradation/ui/", "Accept: text/html").status()).isEqualTo(401);
			assertThat(http.send("GET", "/actuator/degradation/ui/status.js", "Accept: */*").status())
				.isEqualTo(401);
			String operator = "Authorization: Basic "
					+ Base64.getEncoder().encodeToString("oncall:secret".getBytes(java.nio.charset.StandardCharsets.UTF_8));
			assertThat(http.send("GET", "/actuator/degradation/ui", "Accept: text/html", operator).status())
				.isEqualTo(200);
		}

	}

	/**
	 * The test shop with the degradation endpoint behind an operator role, as a real service would
	 * secure it.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class OperatorSecuredShop {

		@Bean
		SecurityFilterChain operatorSecurity(HttpSecurity http) {
			return http
				.authorizeHttpRequests((requests) -> requests.requestMatchers(EndpointRequest.to(DegradationEndpoint.class))
					.hasRole("OPERATOR")
					.anyRequest()
					.permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.build();
		}

		@Bean
		InMemoryUserDetailsManager operators() {
			return new InMemoryUserDetailsManager(
					User.withUsername("oncall").password("{noop}secret").roles("OPERATOR").build());
		}

	}

}

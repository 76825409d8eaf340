package dev.degradation.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.handler.ManifestVerification;
import dev.degradation.cli.ManifestCli;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.web.HandlerRoute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A gateway with a handler of its own ({@code /fallback}) and proxied routes from properties and
 * from the Java DSL: its proxied routes count as handlers, so strict verification starts, the
 * endpoint says every route of the manifest is handled, {@code walk} by the gateway's address
 * passes, and a mistyped route is still refused. A gateway without a handler of its own starts
 * under strict verification too.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:gateway-routes-manifest.yaml", "degradation.verify=strict",
				"degradation.probes.enabled=false",
				"spring.cloud.gateway.server.webflux.routes[0].id=catalog",
				"spring.cloud.gateway.server.webflux.routes[0].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/catalog/**",
				"spring.cloud.gateway.server.webflux.routes[1].id=orders",
				"spring.cloud.gateway.server.webflux.routes[1].uri=${backend.catalog}",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/orders/**",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[1]=Method=POST",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class GatewayRoutesAsHandlersIntegrationTests {

	private static final LoopbackBackend catalog = LoopbackBackend.start("catalog");

	private static final LoopbackBackend reviews = LoopbackBackend.start("reviews");

	private static final Pattern HANDLED = Pattern.compile("\"handled\":(true|false|null)");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	ManifestVerification verification;

	@DynamicPropertySource
	static void backends(DynamicPropertyRegistry registry) {
		registry.add("backend.catalog", catalog::url);
		registry.add("backend.reviews", reviews::url);
	}

	@AfterAll
	static void stopBackends() {
		catalog.close();
		reviews.close();
	}

	@Test
	void theGatewaysRoutesFromPropertiesAndTheJavaDslAreHandlersBesideItsOwn() {
		// Started under degradation.verify=strict: every route of the manifest is served.
		assertThat(this.verification.handlers()).extracting(HandlerRoute::toString, HandlerRoute::handler)
			.contains(tuple("* /catalog/**", "gateway route 'catalog'"), tuple("POST /orders/**", "gateway route 'orders'"),
					tuple("GET /dsl/reviews/**", "gateway route 'dsl-reviews'"));
		assertThat(this.verification.handlers()).extracting(HandlerRoute::toString).contains("GET /fallback");
	}

	@Test
	void theEndpointSaysEveryRouteIsHandled() throws Exception {
		HttpResponse<String> response = send("GET", "/actuator/degradation");
		assertThat(response.statusCode()).isEqualTo(200);
		Matcher handled = HANDLED.matcher(response.body());
		int routes = 0;
		while (handled.find()) {
			assertThat(handled.group(1)).as(response.body()).isEqualTo("true");
			routes++;
		}
		assertThat(routes).isEqualTo(3);
	}

	@Test
	void walkByTheGatewaysAddressPasses() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ManifestCli.run(new String[] { "walk", "--base-url", "http://127.0.0.1:" + this.port },
				new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
		String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
		assertThat(status).as(printed).isEqualTo(ManifestCli.VALID);
		assertThat(printed).doesNotContain("matches no handler");
	}

	@Test
	void theProxiedRoutesAndTheGatewaysOwnHandlerAnswer() throws Exception {
		assertThat(send("GET", "/catalog/items").body()).contains("\"backend\":\"catalog\"", "live");
		assertThat(send("POST", "/orders/7").body()).contains("\"backend\":\"catalog\"", "live");
		assertThat(send("GET", "/dsl/reviews/1").body()).contains("\"backend\":\"reviews\"", "live");
		assertThat(send("GET", "/fallback").body()).contains("\"source\":\"gateway\"");
	}

	@Test
	void aMistypedRouteIsStillRefusedUnderStrictVerification() {
		SpringApplicationBuilder gateway = new SpringApplicationBuilder(TestGatewayApplication.class).properties(
				"server.port=0", "degradation.manifest=classpath:gateway-routes-typo-manifest.yaml",
				"degradation.verify=strict", "degradation.probes.enabled=false",
				"backend.catalog=" + catalog.url(), "backend.reviews=" + reviews.url(),
				"spring.cloud.gateway.server.webflux.routes[0].id=catalog",
				"spring.cloud.gateway.server.webflux.routes[0].uri=" + catalog.url(),
				"spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/catalog/**",
				"spring.cloud.gateway.server.webflux.routes[1].id=orders",
				"spring.cloud.gateway.server.webflux.routes[1].uri=" + catalog.url(),
				"spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/orders/**",
				"spring.cloud.gateway.server.webflux.routes[1].predicates[1]=Method=POST");
		assertThatExceptionOfType(InvalidManifestException.class).isThrownBy(gateway::run)
			.withMessageContaining("(1 problem)")
			.withMessageContaining("tiers.enhanced.routes[0]: GET /catalg/** matches no handler of the application")
			.withMessageContaining("did you mean /catalog/**?");
	}

	@Test
	void aGatewayWithoutAHandlerOfItsOwnStartsUnderStrictVerificationWithItsRoutesAsHandlers() {
		try (ConfigurableApplicationContext gateway = new SpringApplicationBuilder(ProxyOnlyGateway.class)
			.properties("server.port=0", "degradation.manifest=classpath:gateway-routes-manifest.yaml",
					"degradation.verify=strict", "degradation.probes.enabled=false", "backend.catalog=" + catalog.url(),
					"backend.reviews=" + reviews.url(), "spring.cloud.gateway.server.webflux.routes[0].id=catalog",
					"spring.cloud.gateway.server.webflux.routes[0].uri=" + catalog.url(),
					"spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/catalog/**",
					"spring.cloud.gateway.server.webflux.routes[1].id=orders",
					"spring.cloud.gateway.server.webflux.routes[1].uri=" + catalog.url(),
					"spring.cloud.gateway.server.webflux.routes[1].predicates[0]=Path=/orders/**",
					"spring.cloud.gateway.server.webflux.routes[1].predicates[1]=Method=POST",
					"spring.cloud.gateway.server.webflux.routes[2].id=dsl-reviews",
					"spring.cloud.gateway.server.webflux.routes[2].uri=" + reviews.url(),
					"spring.cloud.gateway.server.webflux.routes[2].predicates[0]=Path=/dsl/reviews/**",
					"spring.cloud.gateway.server.webflux.routes[2].predicates[1]=Method=GET")
			.run()) {
			assertThat(gateway.getBean(ManifestVerification.class).handlers()).extracting(HandlerRoute::handler)
				.containsOnly("gateway route 'catalog'", "gateway route 'orders'", "gateway route 'dsl-reviews'");
		}
	}

	/**
	 * A gateway with proxied routes only, from properties. No {@code @Configuration}: the test
	 * class's own context must not take it for its configuration.
	 */
	@EnableAutoConfiguration
	static class ProxyOnlyGateway {

	}

	private HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}

package dev.degradation.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client whose request factory the starter cannot bound per request (a Reactor Netty factory
 * the application made itself, over a client without the starter's hook) is said once at startup,
 * however many clients are built the same way, naming the dependency it calls and why, and the
 * {@code degradation} endpoint lists it; a client on a factory the starter bounds is not.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		classes = UnboundedClientWarningTests.UnboundedClients.class,
		properties = { "degradation.manifest=classpath:client/stalled-manifest.yaml",
				"degradation.probes.enabled=false", "stub.url=http://127.0.0.1:9",
				"management.endpoints.web.exposure.include=degradation" })
class UnboundedClientWarningTests {

	private static final Pattern WARNING = Pattern.compile("WARN .*Guarded calls to dependency 'stalled' through "
			+ "the RestClient built from bean 'restClientBuilder' run on the guards' executor, a thread each: "
			+ "ReactorClientHttpRequestFactory over a Reactor Netty HttpClient");

	@LocalServerPort
	int port;

	@Test
	void aClientTheStarterCannotBoundIsSaidOnceWithItsDependencyAndShownByTheEndpoint(CapturedOutput output)
			throws Exception {
		Matcher warnings = WARNING.matcher(output.getOut() + output.getErr());
		int count = 0;
		while (warnings.find()) {
			count++;
		}
		assertThat(count).as(output.getAll()).isEqualTo(1);
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/degradation"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode unbounded = JsonMapper.builder().build().readTree(response.body()).get("unboundedClients");
		assertThat(unbounded).as(response.body()).hasSize(1);
		assertThat(unbounded.get(0).get("client").asString())
			.isEqualTo("the RestClient built from bean 'restClientBuilder'");
		assertThat(unbounded.get(0).get("dependencies").get(0).asString()).isEqualTo("stalled");
		assertThat(unbounded.get(0).get("reason").asString()).contains("ReactorAttemptTimeout",
				"ClientHttpRequestFactoryBuilder");
	}

	@UnsecuredTestConfiguration
	static class UnboundedClients {

		/** Two clients built alike: one warning. */
		@Bean
		RestClient reactorClient(RestClient.Builder builder, Environment env) {
			return builder.baseUrl(env.getRequiredProperty("stub.url") + "/stalled")
				.requestFactory(new ReactorClientHttpRequestFactory())
				.build();
		}

		@Bean
		RestClient otherReactorClient(RestClient.Builder builder, Environment env) {
			return builder.baseUrl(env.getRequiredProperty("stub.url") + "/stalled/other")
				.requestFactory(new ReactorClientHttpRequestFactory())
				.build();
		}

		/** Bounded by the starter: nothing to say. */
		@Bean
		RestClient jdkClient(RestClient.Builder builder, Environment env) {
			return builder.baseUrl(env.getRequiredProperty("stub.url") + "/stalled")
				.requestFactory(new JdkClientHttpRequestFactory())
				.build();
		}

	}

}

package dev.degradation.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A client whose request factory the starter cannot bound per request (a Reactor Netty factory
 * the application made itself, over a client without the starter's hook) is said once at startup,
 * however many clients are built the same way, naming the dependency it calls and why, and the
 * {@code degradation} endpoint lists it; a client on a factory the starter bounds is not. A client
 * bean whose factory the starter could not see (built without a builder bean) is said once, at
 * its first call that took a thread.
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

	private static final Pattern FIRST_CALL_WARNING = Pattern.compile("WARN .*Guarded calls to dependency 'stalled' "
			+ "through RestClient bean 'fixedReactorClient' run on the guards' executor, a thread each \\(seen at its "
			+ "first call\\)");

	@LocalServerPort
	int port;

	@Autowired
	RestClient fixedReactorClient;

	@Test
	void aClientTheStarterCannotBoundIsSaidOnceWithItsDependencyAndShownByTheEndpoint(CapturedOutput output)
			throws Exception {
		assertThat(count(WARNING, output)).as(output.getAll()).isEqualTo(1);
		List<JsonNode> fromBuilder = unboundedClients().valueStream()
			.filter((client) -> client.get("client").asString().equals("the RestClient built from bean 'restClientBuilder'"))
			.toList();
		assertThat(fromBuilder).singleElement().satisfies((client) -> {
			assertThat(client.get("dependencies").get(0).asString()).isEqualTo("stalled");
			assertThat(client.get("reason").asString()).contains("ReactorAttemptTimeout",
					"ClientHttpRequestFactoryBuilder");
		});
		// The client on the JDK factory is bounded: not listed.
		assertThat(unboundedClients().valueStream().map((client) -> client.get("reason").asString()))
			.noneMatch((reason) -> reason.contains("Jdk"));
	}

	@Test
	void aClientBeanWhoseFactoryCouldNotBeSeenIsSaidOnceAtItsFirstCallThatTookAThread(CapturedOutput output)
			throws Exception {
		for (int i = 0; i < 2; i++) {
			// Nothing listens there: the call fails, on a thread of the guards' executor.
			assertThatExceptionOfType(DependencyUnavailableException.class)
				.isThrownBy(() -> this.fixedReactorClient.get().uri("/").retrieve().body(String.class));
		}
		assertThat(count(FIRST_CALL_WARNING, output)).as(output.getAll()).isEqualTo(1);
		assertThat(unboundedClients()).anySatisfy((client) -> {
			assertThat(client.get("client").asString()).isEqualTo("RestClient bean 'fixedReactorClient'");
			assertThat(client.get("dependencies").get(0).asString()).isEqualTo("stalled");
		});
	}

	private static int count(Pattern warning, CapturedOutput output) {
		Matcher warnings = warning.matcher(output.getOut() + output.getErr());
		int count = 0;
		while (warnings.find()) {
			count++;
		}
		return count;
	}

	private JsonNode unboundedClients() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/degradation"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode unbounded = JsonMapper.builder().build().readTree(response.body()).get("unboundedClients");
		assertThat(unbounded).as(response.body()).isNotNull();
		return unbounded;
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

		/**
		 * A client bean built without a builder bean: its factory is not seen when it gets the
		 * guard, so its first call says what startup could not.
		 */
		@Bean
		RestClient fixedReactorClient(Environment env) {
			return RestClient.builder()
				.baseUrl(env.getRequiredProperty("stub.url") + "/stalled")
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

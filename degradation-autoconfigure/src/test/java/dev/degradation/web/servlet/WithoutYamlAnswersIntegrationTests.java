package dev.degradation.web.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.http.converter.autoconfigure.ServerHttpMessageConvertersCustomizer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.converter.yaml.JacksonYamlHttpMessageConverter;

import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter reads its manifest with Jackson's YAML module, and Spring MVC registers a YAML
 * message converter whenever that module is on the class path. An application that should not
 * answer or accept {@code application/yaml} removes the converter as docs/operations.md shows;
 * this is that snippet, on a real server.
 */
@SpringBootTest(classes = { ShopTestApplication.class, WithoutYamlAnswersIntegrationTests.NoYaml.class },
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = "degradation.probes.enabled=false")
class WithoutYamlAnswersIntegrationTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Test
	void yamlIsNeitherAnsweredNorAcceptedOnceItsConverterIsRemoved() throws Exception {
		assertThat(get("/api/products", "application/yaml").statusCode()).isEqualTo(406);
		HttpResponse<String> json = get("/api/products", "application/json");
		assertThat(json.statusCode()).isEqualTo(200);
		assertThat(json.body()).startsWith("[{");
	}

	private HttpResponse<String> get(String path, String accept) throws Exception {
		return this.client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("Accept", accept)
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** The snippet of docs/operations.md. */
	@TestConfiguration(proxyBeanMethods = false)
	static class NoYaml {

		@Bean
		ServerHttpMessageConvertersCustomizer withoutYamlConverter() {
			return (builder) -> builder.configureMessageConvertersList(
					(converters) -> converters.removeIf(JacksonYamlHttpMessageConverter.class::isInstance));
		}

	}

}

package dev.degradation.stacks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.engine.DegradationEngine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A refused write to the endpoint whose body is still arriving, on Spring MVC served by Jetty,
 * behind an application's filter that does not support asynchronous requests: the starter cannot
 * let the body go asynchronously there, so it reads it on the request's thread (within its
 * bounds), and every refusal still reaches its caller. Jetty closes a connection on a body nobody
 * read, and the reset discards the answer. Run by the {@code jetty} surefire execution.
 */
@EnabledIfSystemProperty(named = JettyTests.ON_JETTY, matches = "true")
@SpringBootTest(classes = { StackTestApplication.class, JettyServletEndpointWithoutAsyncTests.NoAsync.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"spring.autoconfigure.exclude=" + JettyTests.NOT_JETTY_SERVLET,
				"management.endpoints.web.exposure.include=health,degradation",
				"management.endpoint.degradation.access=unrestricted" })
class JettyServletEndpointWithoutAsyncTests {

	static final StackBehaviourTests.Fixture fixture = StackBehaviourTests.Fixture.start();

	private final HttpClient client = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(5))
		.version(HttpClient.Version.HTTP_1_1)
		.build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	NoAsync noAsync;

	@DynamicPropertySource
	static void dependencies(DynamicPropertyRegistry registry) {
		fixture.register(registry);
	}

	@AfterAll
	static void stop() {
		fixture.close();
	}

	@Test
	void aRefusedWritesBodyIsReadOnItsThreadAndTheRefusalArrives() throws Exception {
		for (int size : new int[] { 64 * 1024, 256 * 1024, 900 * 1024 }) {
			String json = "{\"enabled\": false, \"ttl\": \"" + "x".repeat(size) + "\"}";
			for (int i = 0; i < 5; i++) {
				HttpResponse<String> refused = this.client.send(
						HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/degradation"))
							.header("Content-Type", "application/json")
							.timeout(Duration.ofSeconds(10))
							.POST(HttpRequest.BodyPublishers.ofString(json))
							.build(),
						HttpResponse.BodyHandlers.ofString());
				assertThat(refused.statusCode()).as("%d bytes, write %d", size, i + 1).isEqualTo(413);
				assertThat(refused.body()).contains("The body is larger than 16384 bytes");
			}
		}
		assertThat(this.noAsync.seen).as("writes seen behind the filter").hasSize(15);
		assertThat(this.noAsync.seen).as("whether each went on asynchronously").containsOnly(false);
		assertThat(this.engine.state().simulation().enabled()).isFalse();
	}

	/**
	 * An application's filter, before every other, that does not support asynchronous requests,
	 * and records whether the request went on asynchronously after the chain returned.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class NoAsync {

		final List<Boolean> seen = new CopyOnWriteArrayList<>();

		@Bean
		FilterRegistrationBean<Filter> noAsyncFilter() {
			Filter filter = (ServletRequest request, ServletResponse response, FilterChain chain) -> {
				chain.doFilter(request, response);
				this.seen.add(request.isAsyncStarted());
			};
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(filter);
			registration.setAsyncSupported(false);
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			registration.addUrlPatterns("/actuator/degradation");
			return registration;
		}

	}

}

package dev.degradation.sample.embedded;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The shop's three embedded dependencies on their own, without Spring.
 */
class EmbeddedDependenciesTests {

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final EmbeddedDependencies dependencies = EmbeddedDependencies.start(Duration.ofSeconds(3));

	@AfterEach
	void stopDependencies() {
		this.dependencies.stop();
	}

	@Test
	void eachDependencyListensOnItsOwnLoopbackPortAndAllAreHealthy() {
		assertThat(this.dependencies.dependencies()).extracting(EmbeddedDependency::name)
			.containsExactly("analytics-collector", "recommendations-api", "personalization-service");
		assertThat(this.dependencies.dependencies()).extracting(EmbeddedDependency::mode)
			.containsOnly(DependencyMode.HEALTHY);
		assertThat(this.dependencies.dependencies()).extracting((dependency) -> dependency.url().getHost())
			.containsOnly("127.0.0.1");
		assertThat(this.dependencies.dependencies()).extracting(EmbeddedDependency::port).doesNotHaveDuplicates();
	}

	@Test
	void healthyDependencyAnswersItsHealthAndDataEndpoints() throws Exception {
		assertThat(get("recommendations-api", "/healthz").statusCode()).isEqualTo(200);
		HttpResponse<String> data = get("recommendations-api", "/recommendations?user=alice");
		assertThat(data.statusCode()).isEqualTo(200);
		assertThat(data.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(data.body()).isEqualTo("{\"items\":[\"p-2\",\"p-3\"]}");
		assertThat(post("analytics-collector", "/events", "{\"name\":\"product-viewed\"}").statusCode())
			.isEqualTo(202);
		assertThat(get("personalization-service", "/profiles?user=alice").body())
			.isEqualTo("{\"profile\":\"outdoor-enthusiast\"}");
	}

	@Test
	void unknownPathIsNotFoundAndWrongMethodIsNotAllowed() throws Exception {
		assertThat(get("recommendations-api", "/nothing-here").statusCode()).isEqualTo(404);
		assertThat(get("analytics-collector", "/events").statusCode()).isEqualTo(405);
		assertThat(post("analytics-collector", "/healthz", "{}").statusCode()).isEqualTo(405);
	}

	@Test
	void unknownDependencyNameIsRejectedWithTheKnownNames() {
		assertThatExceptionOfType(NoSuchElementException.class).isThrownBy(() -> this.dependencies.dependency("nope"))
			.withMessageContaining("recommendations-api");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> EmbeddedDependency.start("nope", Duration.ofSeconds(1)));
	}

	@Test
	void startsOnlyTheNamedDependencies() {
		EmbeddedDependencies some = EmbeddedDependencies.start(List.of("recommendations-api"), Duration.ofSeconds(1));
		try {
			assertThat(some.dependencies()).extracting(EmbeddedDependency::name).containsExactly("recommendations-api");
		}
		finally {
			some.stop();
		}
	}

	@Test
	void healAllSwitchesEveryDependencyBackToHealthy() {
		this.dependencies.dependency("recommendations-api").switchTo(DependencyMode.REFUSING);
		this.dependencies.dependency("analytics-collector").switchTo(DependencyMode.HANGING);
		this.dependencies.healAll();
		assertThat(this.dependencies.dependencies()).extracting(EmbeddedDependency::mode)
			.containsOnly(DependencyMode.HEALTHY);
	}

	@Test
	void stoppedDependenciesRefuseConnectionsAndStoppingAgainDoesNothing() {
		this.dependencies.stop();
		this.dependencies.stop();
		assertThat(this.dependencies.isStopped()).isTrue();
		for (String name : EmbeddedDependencies.NAMES) {
			assertThatExceptionOfType(ConnectException.class).as(name).isThrownBy(() -> get(name, "/healthz"));
		}
	}

	private HttpResponse<String> get(String dependency, String path) throws IOException, InterruptedException {
		return this.http.send(request(dependency, path).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(String dependency, String path, String json)
			throws IOException, InterruptedException {
		return this.http.send(request(dependency, path).POST(HttpRequest.BodyPublishers.ofString(json)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest.Builder request(String dependency, String path) {
		URI url = this.dependencies.dependency(dependency).url();
		return HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(5));
	}

}

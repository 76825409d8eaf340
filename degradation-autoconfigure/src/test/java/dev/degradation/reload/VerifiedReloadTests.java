package dev.degradation.reload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.testapp.JsonHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reload is verified as startup is, under the same {@code degradation.verify} mode: a new
 * manifest whose route no handler serves is refused under {@code strict}, with its position, and
 * the active manifest stays; under {@code warn} it is reloaded with a warning that names it. A
 * subclass names the mode.
 */
abstract class VerifiedReloadTests {

	private static final String SERVED = """
			tiers:
			  enhanced:
			    priority: 1
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: drop }
			""";

	static final String MISTYPED = """
			tiers:
			  enhanced:
			    priority: 1
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: drop }
			      - { path: "/api/recomendations/{id}", method: GET, fallback: drop }
			""";

	static final String MISTYPED_METER = """
			tiers:
			  enhanced:
			    priority: 1
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: drop }
			pressure:
			  - { meter: jvm.memory.usd, shed_above: 1e12, restore_below: 1e11, sheds: enhanced }
			""";

	@TempDir
	static Path directory;

	@Autowired
	DegradationEngine engine;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void manifest(DynamicPropertyRegistry registry) throws IOException {
		write(SERVED);
		registry.add("degradation.manifest", () -> "file:" + directory.resolve("degradation-manifest.yaml"));
	}

	@AfterEach
	void backToTheServedManifest() throws Exception {
		write(SERVED);
		assertThat(new JsonHttp(this.port).post("/actuator/degradation/manifest", "{}").status()).isEqualTo(200);
	}

	static void write(String manifest) throws IOException {
		Files.writeString(directory.resolve("degradation-manifest.yaml"), manifest, StandardCharsets.UTF_8);
	}

}

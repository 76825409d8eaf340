package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A whole application started with a broken manifest: it does not start, and Spring Boot's failure
 * report, written by our registered failure analyzers, lists every problem with its position.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidManifestStartupTests {

	@Test
	void anApplicationWithAnInvalidManifestDoesNotStartAndReportsEveryProblem(CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(ShopTestApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/broken.yaml")
			.run())
			.withRootCauseInstanceOf(InvalidManifestException.class);
		assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START")
			.contains("The degradation manifest classpath:manifests/broken.yaml has 4 problems")
			.contains("classpath:manifests/broken.yaml:2:3: defaults.failure_treshold")
			.contains("classpath:manifests/broken.yaml:5:17: dependencies.recommendations-api.health_url")
			.contains("classpath:manifests/broken.yaml:10:9: tiers.enhanced.routes[0].static_response")
			.contains("classpath:manifests/broken.yaml:13:20: tiers.enhanced.routes[0].requires[0]")
			.contains("Action:");
	}

	@Test
	void anApplicationWhoseConfiguredManifestIsMissingDoesNotStartAndSaysWhere(CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(ShopTestApplication.class)
			.properties("server.port=0", "degradation.manifest=file:/nonexistent/degradation-manifest.yaml")
			.run())
			.withRootCauseInstanceOf(ManifestNotFoundException.class);
		assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START")
			.contains("'degradation.manifest' is set to 'file:/nonexistent/degradation-manifest.yaml'");
	}

}

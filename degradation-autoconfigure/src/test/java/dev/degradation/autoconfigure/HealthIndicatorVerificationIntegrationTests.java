package dev.degradation.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.testapp.UnsecuredTestConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A {@code health_indicator} that names no health indicator of a real application
 * ({@code database} where the indicator is {@code db}) is checked at startup like a route against
 * the handlers: warned about with its position and the names that exist, refused under
 * {@code degradation.verify=strict}, and named in the log line of the change it causes.
 */
@ExtendWith(OutputCaptureExtension.class)
class HealthIndicatorVerificationIntegrationTests {

	private static final String PROBLEM = "classpath:manifests/unknown-health-indicator.yaml:12:3: "
			+ "dependencies.database.health_indicator: no health contributor named 'database'";

	@Test
	void anUnknownHealthIndicatorIsWarnedAboutWithItsPositionAndTheIndicatorsThatExist(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("degradation.verify=warn")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).containsOnlyOnce(PROBLEM)
			.contains("WARN")
			.containsPattern("the application's health indicators are: .*\\bdb\\b")
			.contains("set 'degradation.verify=strict' to refuse to start instead");
	}

	@Test
	void underStrictVerificationAnUnknownHealthIndicatorFailsStartup(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("degradation.verify=strict"))
			.isInstanceOf(InvalidManifestException.class);
		assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START").contains(PROBLEM);
	}

	@Test
	void aKnownHealthIndicatorStartsUnderStrictVerificationWithoutWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(IndicatorApplication.class)
			.properties(Map.of("server.port", "0", "degradation.manifest", "classpath:client/health-indicator-manifest.yaml",
					"degradation.probes.enabled", "false", "degradation.verify", "strict"))
			.run()) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).doesNotContain("no health contributor named");
	}

	private ConfigurableApplicationContext start(String verify) {
		return new SpringApplicationBuilder(IndicatorApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/unknown-health-indicator.yaml",
					"degradation.probes.enabled=false", verify)
			.run();
	}

	@UnsecuredTestConfiguration
	static class IndicatorApplication {

		/** The application's own indicator, named 'db' as Boot's DataSource one would be. */
		@Bean
		HealthIndicator dbHealthIndicator() {
			return () -> Health.up().build();
		}

		@Bean
		OrdersController ordersController() {
			return new OrdersController();
		}

	}

	@RestController
	static class OrdersController {

		@GetMapping("/api/orders")
		String orders() {
			return "{\"source\":\"live\"}";
		}

	}

}

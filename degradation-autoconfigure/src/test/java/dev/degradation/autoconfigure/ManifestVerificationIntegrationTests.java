package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A manifest route that matches no controller of a real application: warned about by default,
 * refused under {@code degradation.verify=strict}, with its position in the manifest.
 */
@ExtendWith(OutputCaptureExtension.class)
class ManifestVerificationIntegrationTests {

	private static final String PROBLEM = "classpath:manifests/typo.yaml:8:9: tiers.enhanced.routes[1]: "
			+ "GET /api/recomendations/top matches no handler of the application, so it would never be shed";

	@Test
	void byDefaultAnUnmatchedRouteIsWarnedAboutWithItsPosition(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("degradation.verify=warn")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).containsOnlyOnce(PROBLEM)
			.contains("WARN")
			.contains("set 'degradation.verify=strict' to refuse to start");
	}

	@Test
	void underStrictVerificationAnUnmatchedRouteFailsStartupWithItsPositionInTheReport(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("degradation.verify=strict"))
			.isInstanceOf(InvalidManifestException.class);
		assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START").contains(PROBLEM);
	}

	@Test
	void aManifestWhoseRoutesAllMatchStartsUnderStrictVerificationWithoutWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ShopTestApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/shop.yaml",
					"degradation.probes.enabled=false", "degradation.verify=strict")
			.run()) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).doesNotContain("matches no handler");
	}

	@Test
	void aRouteThatWouldCatchTheRequestsOfAMoreSpecificCoreHandlerFailsStrictVerification(CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(ShopTestApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/shadow.yaml",
					"degradation.probes.enabled=false", "degradation.verify=strict")
			.run()).isInstanceOf(InvalidManifestException.class);
		assertThat(output.getOut() + output.getErr()).contains("classpath:manifests/shadow.yaml:5:9: "
				+ "tiers.enhanced.routes[0]: GET /api/catalog/{id}/reviews also matches /api/catalog/featured/reviews, "
				+ "which Spring MVC sends to ");
	}

	@Test
	void verificationCanBeSwitchedOff(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("degradation.verify=off")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output.getOut()).doesNotContain("matches no handler");
	}

	private ConfigurableApplicationContext start(String verify) {
		return new SpringApplicationBuilder(ShopTestApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/typo.yaml",
					"degradation.probes.enabled=false", verify)
			.run();
	}

}

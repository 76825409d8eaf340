package dev.degradation.handler;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.VerificationMode;
import dev.degradation.web.HandlerRoute;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the check of the manifest against the handlers says when no route matches any handler: a
 * test slice (auto-configuration overridden, as Spring Boot's slices do) is told at INFO in one
 * line, a full application is warned about, as {@code degradation.verify=warn} promises.
 */
@ExtendWith(OutputCaptureExtension.class)
class ManifestVerificationTests {

	private static final String MANIFEST = """
			tiers:
			  extras:
			    priority: 1
			    routes:
			      - { path: /api/extras, method: GET, fallback: drop }
			      - { path: /api/banner, method: GET, fallback: drop }
			""";

	private final DegradationManifest manifest = ManifestLoader.standard()
		.load("test.yaml", MANIFEST.getBytes(StandardCharsets.UTF_8));

	private final List<HandlerRoute> handlers = List.of(new HandlerRoute(Set.of("GET"), "/api/orders", "orders()"));

	@Test
	void aTestSliceWithNoHandlerOfTheManifestIsToldAtInfoInOneLine(CapturedOutput output) {
		verify(new MockEnvironment().withProperty("spring.boot.enableautoconfiguration", "false"));
		assertThat(output.getOut()).containsPattern("INFO .*None of the 2 routes of the degradation manifest "
				+ "'test.yaml' matches one of the 1 handlers of this test slice")
			.doesNotContain("WARN")
			.doesNotContain("matches no handler");
	}

	@Test
	void aFullApplicationWithNoHandlerOfTheManifestIsWarnedAboutEveryRoute(CapturedOutput output) {
		verify(new MockEnvironment());
		assertThat(output.getOut()).containsPattern("WARN .*ManifestVerification")
			.contains("GET /api/extras matches no handler", "GET /api/banner matches no handler",
					"no route of the manifest matches a handler of this application",
					"set 'degradation.verify=strict' to refuse to start instead")
			.doesNotContain("test slice");
	}

	private void verify(MockEnvironment environment) {
		ManifestVerification verification = new ManifestVerification(this.manifest, () -> this.handlers,
				VerificationMode.WARN);
		verification.setEnvironment(environment);
		verification.afterSingletonsInstantiated();
	}

}

package dev.degradation.reload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.JsonHttp.Answer;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under {@code degradation.verify=warn}, a reload whose route no handler serves goes on, with a
 * warning that names the route, as startup would.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.probes.enabled=false", "degradation.verify=warn",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class WarnedReloadIntegrationTests extends VerifiedReloadTests {

	@Test
	void aReloadNamingARouteNoHandlerServesIsReloadedWithAWarning(CapturedOutput output) throws Exception {
		write(MISTYPED);
		Answer reloaded = new JsonHttp(this.port).post("/actuator/degradation/manifest", "{}");
		assertThat(reloaded.status()).isEqualTo(200);
		assertThat(this.engine.manifest().routes()).hasSize(2);
		assertThat(output).contains("/api/recomendations/{id}")
			.contains("reloaded all the same; set 'degradation.verify=strict' to refuse such a reload instead");
	}

	@Test
	void aReloadWithAPressureRuleOnAMeterTheApplicationDoesNotHaveIsReloadedWithAWarning(CapturedOutput output)
			throws Exception {
		write(MISTYPED_METER);
		Answer reloaded = new JsonHttp(this.port).post("/actuator/degradation/manifest", "{}");
		assertThat(reloaded.status()).isEqualTo(200);
		assertThat(this.engine.manifest().pressure()).hasSize(1);
		assertThat(output).contains("pressure[0].meter", "did you mean 'jvm.memory.used'",
				"reloaded all the same; the rule presses nothing until its meter exists");
	}

}

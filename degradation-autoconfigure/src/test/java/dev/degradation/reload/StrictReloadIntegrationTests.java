package dev.degradation.reload;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.JsonHttp.Answer;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under {@code degradation.verify=strict}, a reload whose route no handler serves is refused as
 * startup would be.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.probes.enabled=false", "degradation.verify=strict",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class StrictReloadIntegrationTests extends VerifiedReloadTests {

	@Test
	void aReloadNamingARouteNoHandlerServesIsRefusedWithItsPosition() throws Exception {
		write(MISTYPED);
		Answer refused = new JsonHttp(this.port).post("/actuator/degradation/manifest", "{}");
		assertThat(refused.status()).isEqualTo(400);
		JsonNode problems = refused.json().get("problems");
		assertThat(problems).hasSize(1);
		assertThat(problems.get(0).asString()).contains("degradation-manifest.yaml:6:")
			.contains("tiers.enhanced.routes[1]")
			.contains("/api/recomendations/{id}");
		assertThat(refused.json().get("message").asString()).contains("'degradation.verify=strict'")
			.contains("the active manifest stays");
		assertThat(this.engine.manifest().routes()).hasSize(1);
	}

	@Test
	void aReloadWithAPressureRuleOnAMeterTheApplicationDoesNotHaveIsRefusedWithItsPosition() throws Exception {
		write(MISTYPED_METER);
		Answer refused = new JsonHttp(this.port).post("/actuator/degradation/manifest", "{}");
		assertThat(refused.status()).isEqualTo(400);
		JsonNode problems = refused.json().get("problems");
		assertThat(problems).hasSize(1);
		assertThat(problems.get(0).asString()).contains("degradation-manifest.yaml:7:")
			.contains("pressure[0].meter")
			.contains("did you mean 'jvm.memory.used'");
		assertThat(refused.json().get("message").asString()).contains("the running application finds")
			.contains("the active manifest stays");
		assertThat(this.engine.manifest().pressure()).isEmpty();
	}

}

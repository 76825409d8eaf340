package dev.degradation.shapes.jdbc;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;

import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A pressure rule on a meter the application does not have is a problem of the manifest: under
 * {@code degradation.verify=strict} the application does not start, and says where and what it
 * probably meant.
 */
class JdbcShapeStartupTests {

	@Test
	void aRuleOnAMeterTheApplicationDoesNotHaveRefusesToStartWithItsPositionAndTheClosestName() {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(JdbcShapeApplication.class)
			.properties("server.port=0", "degradation.manifest=classpath:manifests/pressure-typo.yaml",
					"spring.datasource.url=jdbc:h2:mem:typo;DB_CLOSE_DELAY=-1")
			.run()
			.close())
			.havingRootCause()
			.withMessageContaining("pressure-typo.yaml")
			.withMessageContaining("7:")
			.withMessageContaining("pressure[0].meter")
			.withMessageContaining("did you mean 'hikaricp.connections.pending'");
	}

}

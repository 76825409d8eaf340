package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import dev.degradation.web.servlet.FormLimits;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits on a form the servlet filter reads itself come from the server's own settings, so
 * that a form the server would refuse is never parsed by the starter instead.
 */
class ServletFormLimitsTests {

	@Test
	void tomcatsDefaultsWhenNothingIsSet() {
		assertThat(DegradationServletAutoConfiguration.formLimits(new MockEnvironment(), false))
			.isEqualTo(new FormLimits(2 * 1024 * 1024, 1000));
	}

	@Test
	void tomcatsLowerLimitsAreKept() {
		MockEnvironment environment = new MockEnvironment().withProperty("server.tomcat.max-http-form-post-size", "10KB")
			.withProperty("server.tomcat.max-parameter-count", "20");
		assertThat(DegradationServletAutoConfiguration.formLimits(environment, false))
			.isEqualTo(new FormLimits(10 * 1024, 20));
	}

	@Test
	void aServerWithoutALimitGetsTomcatsDefaultHereAndNeverMore() {
		MockEnvironment environment = new MockEnvironment().withProperty("server.tomcat.max-http-form-post-size", "-1")
			.withProperty("server.tomcat.max-parameter-count", "100000");
		assertThat(DegradationServletAutoConfiguration.formLimits(environment, false))
			.isEqualTo(FormLimits.TOMCAT_DEFAULTS);
	}

	@Test
	void aServerThatTakesNoFormLeavesEveryFormToTheServer() {
		MockEnvironment environment = new MockEnvironment().withProperty("server.tomcat.max-http-form-post-size", "0");
		assertThat(DegradationServletAutoConfiguration.formLimits(environment, false).maxBytes())
			.isZero();
	}

	@Test
	void jettysSettingsWhenJettyServes() {
		MockEnvironment environment = new MockEnvironment().withProperty("server.jetty.max-form-keys", "30")
			.withProperty("server.tomcat.max-http-form-post-size", "1MB");
		assertThat(DegradationServletAutoConfiguration.formLimits(environment, true))
			.isEqualTo(new FormLimits(200_000, 30));
	}

}

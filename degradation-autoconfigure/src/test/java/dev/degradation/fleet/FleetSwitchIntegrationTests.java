package dev.degradation.fleet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.config.server.EnableConfigServer;
import org.springframework.context.ConfigurableApplicationContext;

import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.RawHttp;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fleet switched through the config system it already runs: a real Spring Cloud Config Server
 * (native file backend, loopback) serves two instances of the shop; a switch committed to the
 * config source reaches both on refresh, a misspelt one is refused by both without changing
 * anything, and removing it brings both back. The starter coordinates nothing itself.
 */
class FleetSwitchIntegrationTests {

	@TempDir
	static Path repository;

	private static ConfigurableApplicationContext configServer;

	private static List<ConfigurableApplicationContext> fleet;

	@BeforeAll
	static void startConfigServerAndFleet() throws IOException {
		commit("# nothing switched\n");
		configServer = new SpringApplicationBuilder(ConfigServer.class)
			.properties("server.port=0", "server.address=127.0.0.1", "spring.profiles.active=native",
					"spring.cloud.config.server.native.search-locations=file:" + repository + "/",
					"degradation.enabled=false")
			.run();
		String url = "http://127.0.0.1:" + port(configServer);
		fleet = List.of(instance(url), instance(url));
	}

	@AfterAll
	static void stop() {
		if (fleet != null) {
			fleet.forEach(ConfigurableApplicationContext::close);
		}
		if (configServer != null) {
			configServer.close();
		}
	}

	@Test
	void aSwitchCommittedToTheConfigSourceReachesEveryInstanceOnRefresh() throws Exception {
		for (ConfigurableApplicationContext instance : fleet) {
			assertThat(track(instance).degraded()).isFalse();
		}

		commit("degradation.switches.best-effort=off\n");
		refreshAll();
		for (ConfigurableApplicationContext instance : fleet) {
			RawHttp.Response shed = track(instance);
			assertThat(shed.degraded()).isTrue();
			assertThat(shed.header("X-Degradation-Reason")).isEqualTo("switch:best-effort");
		}

		// A misspelt switch is refused whole: every instance keeps what it had.
		commit("degradation.switches.best-efort=on\n");
		refreshAll();
		for (ConfigurableApplicationContext instance : fleet) {
			assertThat(track(instance).header("X-Degradation-Reason")).isEqualTo("switch:best-effort");
		}

		commit("degradation.switches.best-effort=on\n");
		refreshAll();
		for (ConfigurableApplicationContext instance : fleet) {
			assertThat(track(instance).degraded()).isFalse();
		}
	}

	private static ConfigurableApplicationContext instance(String configServerUrl) {
		// As arguments, as a deployment passes them: imports are not read from default properties.
		return new SpringApplicationBuilder(ShopTestApplication.class).run("--server.port=0",
				"--server.address=127.0.0.1", "--spring.application.name=shop",
				// The Config Server on this class path turns the config client off unless asked.
				"--spring.config.import=configserver:" + configServerUrl, "--spring.cloud.config.enabled=true",
				"--degradation.manifest=classpath:manifests/shop.yaml", "--degradation.probes.enabled=false",
				"--management.endpoints.web.exposure.include=refresh,degradation");
	}

	private static void refreshAll() throws Exception {
		for (ConfigurableApplicationContext instance : fleet) {
			assertThat(new JsonHttp(port(instance)).post("/actuator/refresh", "{}").status()).isEqualTo(200);
		}
	}

	private static RawHttp.Response track(ConfigurableApplicationContext instance) throws IOException {
		return new RawHttp(port(instance)).send("POST", "/api/analytics/track");
	}

	private static void commit(String properties) throws IOException {
		Files.writeString(repository.resolve("shop.properties"), properties, StandardCharsets.UTF_8);
	}

	private static int port(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
	}

	/**
	 * A Config Server with the native (file) backend, open on loopback as the test shop is (Spring
	 * Security is on the test class path).
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	@EnableConfigServer
	static class ConfigServer {

	}

}

package dev.degradation.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.FallbackKey;
import dev.degradation.manifest.FallbackKeys;
import dev.degradation.manifest.HealthSourceKey;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.Route;
import dev.degradation.monitor.DependencyHealthSource;
import dev.degradation.monitor.HealthProbe;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.reload.ManifestReloader;
import dev.degradation.web.Answer;
import dev.degradation.web.FallbackWriter;
import dev.degradation.web.RequestView;
import dev.degradation.web.RouteTable;
import dev.degradation.web.ServedAnswer;
import dev.degradation.web.ServedFallbackKind;
import dev.degradation.web.StaleAnswers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application's fallback kinds and health sources, as beans, reach the manifest at startup
 * and on a reload, the route table and the probes; a kind that takes a built-in name, and a
 * manifest naming a kind the application does not have, stop startup.
 */
class PluggedKindsAutoConfigurationTests {

	private static final String MANIFEST = """
			dependencies:
			  ledger:
			    status_board_line: ledger
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: teapot, teapot_says: %s, requires: [ledger] }
			""";

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
				DegradationServletAutoConfiguration.class))
		.withPropertyValues("degradation.probes.enabled=false");

	@TempDir
	private Path directory;

	@Test
	void aKindAndASourceOfTheApplicationReachTheManifestTheRouteTableAndTheProbes() throws IOException {
		this.runner.withPropertyValues(manifest("short"))
			.withBean(TeapotKind.class, TeapotKind::new)
			.withBean(LineSource.class, LineSource::new)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RouteTable table = context.getBean(RouteTable.class);
				assertThat(table.routes().get(0).route().fallback()).isEqualTo(new Teapot("short"));
				assertThat(table.routes().get(0).writer()).isInstanceOf(TeapotWriter.class);
				Dependency ledger = context.getBean(DegradationEngine.class).manifest().dependencies().get(0);
				assertThat(ledger.sourceKey("status_board_line")).isEqualTo("ledger");
				assertThat(context.getBean(HealthProbe.class).claims(ledger)).isTrue();
				assertThat(context.getBean(HealthProbe.class).probe(ledger).detail()).isEqualTo("line ledger");
			});
	}

	@Test
	void aReloadedManifestIsReadWithTheApplicationsKindAndSource() throws IOException {
		this.runner.withPropertyValues(manifest("short"))
			.withBean(TeapotKind.class, TeapotKind::new)
			.withBean(LineSource.class, LineSource::new)
			.run((context) -> {
				write("stout");
				ManifestReloader.Outcome outcome = context.getBean(ManifestReloader.class).reload("a test");
				assertThat(outcome.status()).isEqualTo(ManifestReloader.Outcome.Status.RELOADED);
				assertThat(context.getBean(DegradationEngine.class).manifest().routes().get(0).fallback())
					.isEqualTo(new Teapot("stout"));
			});
	}

	@Test
	void withoutTheKindAManifestThatNamesItStopsStartupWithItsPosition() throws IOException {
		this.runner.withPropertyValues(manifest("short")).withBean(LineSource.class, LineSource::new).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidManifestException.class)
				.hasMessageContaining(":8:62: tiers.optional.routes[0].fallback: 'teapot' is not a fallback; use one of "
						+ "drop, stale, static, unavailable");
		});
	}

	@Test
	void aKindThatTakesABuiltInNameStopsStartup() throws IOException {
		this.runner.withPropertyValues(manifest("short"))
			.withBean(TeapotKind.class, () -> new TeapotKind("static"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("is named 'static', which is already the name of a built-in kind");
			});
	}

	private String manifest(String says) throws IOException {
		return "degradation.manifest=file:" + write(says);
	}

	private Path write(String says) throws IOException {
		return Files.writeString(this.directory.resolve("degradation-manifest.yaml"), MANIFEST.formatted(says));
	}

	record Teapot(String says) implements Fallback {

		@Override
		public String kind() {
			return "teapot";
		}

		@Override
		public int answerStatus() {
			return 418;
		}

	}

	static class TeapotKind implements ServedFallbackKind<Teapot> {

		private final String name;

		TeapotKind() {
			this("teapot");
		}

		TeapotKind(String name) {
			this.name = name;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public String summary() {
			return "418";
		}

		@Override
		public String answer() {
			return "answers 418";
		}

		@Override
		public List<FallbackKey> keys() {
			return List.of(FallbackKey.required("teapot_says", "what the teapot says"));
		}

		@Override
		public @Nullable Teapot read(FallbackKeys keys) {
			String says = keys.text("teapot_says");
			return (says != null) ? new Teapot(says) : null;
		}

		@Override
		public FallbackWriter writer(Route route, Teapot fallback, StaleAnswers staleAnswers) {
			return new TeapotWriter(route.tier());
		}

		@Override
		public List<String> differences(Route route, Teapot fallback, ServedAnswer answer) {
			return List.of();
		}

	}

	static class TeapotWriter extends FallbackWriter {

		TeapotWriter(String tier) {
			super(tier);
		}

		@Override
		protected Answer body(RequestView request) {
			return new Answer(418, new String[0], new byte[0]);
		}

	}

	static class LineSource implements DependencyHealthSource {

		@Override
		public HealthSourceKey manifestKey() {
			return new HealthSourceKey("status_board_line", "the line of the status board");
		}

		@Override
		public boolean supports(Dependency dependency) {
			return dependency.sourceKey("status_board_line") != null;
		}

		@Override
		public ProbeResult probe(Dependency dependency) {
			return new ProbeResult(true, ProbeResult.OK, "line " + dependency.sourceKey("status_board_line"),
					Instant.EPOCH, Duration.ZERO);
		}

	}

}

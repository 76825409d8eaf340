package dev.degradation.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line, in process: what it prints, the exit status, and how its options reach the
 * validator.
 */
class ManifestCliTests {

	private static final String VALID = """
			dependencies:
			  recommendations-api:
			    health_url: http://recommendations:8080/healthz
			  analytics-collector:
			    health_url: http://analytics:8080/healthz
			tiers:
			  best-effort:
			    priority: 1
			    routes:
			      - { path: /api/analytics/track, method: POST, fallback: drop, requires: [analytics-collector] }
			      - { path: /api/ab/assign, method: GET, fallback: static, static_response: { variant: control } }
			  enhanced:
			    priority: 2
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: drop, requires: [recommendations-api] }
			""";

	private static final String BROKEN = """
			defaults:
			  failure_treshold: 0.5
			tiers:
			  enhanced:
			    priority: 1
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: drop, requires: [recomendations-api] }
			""";

	private static final String WITH_PLACEHOLDERS = """
			dependencies:
			  catalog:
			    health_url: ${catalog.url}/healthz
			    timeout_ms: ${catalog.timeout:1500}
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/catalog, method: GET, fallback: drop, requires: [catalog] }
			""";

	@TempDir
	Path directory;

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	@Test
	void aValidManifestGivesOneLineThatCountsWhatItDeclaresAndExitStatusZero() throws IOException {
		Path manifest = write("manifest.yaml", VALID);
		assertThat(run(manifest.toString())).isEqualTo(ManifestCli.VALID);
		assertThat(out()).containsExactly(manifest + ": valid (2 dependencies, 2 tiers, 3 routes)");
		assertThat(err()).isEmpty();
	}

	@Test
	void countsOfOneAreSingular() throws IOException {
		Path manifest = write("manifest.yaml", """
				dependencies:
				  catalog:
				    health_url: http://catalog:8080/healthz
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/catalog, method: GET, fallback: drop, requires: [catalog] }
				""");
		assertThat(run(manifest.toString())).isEqualTo(ManifestCli.VALID);
		assertThat(out()).containsExactly(manifest + ": valid (1 dependency, 1 tier, 1 route)");
	}

	@Test
	void aBrokenManifestGivesEveryProblemWithFileLineColumnAndPathAndExitStatusTwo() throws IOException {
		Path manifest = write("broken.yaml", BROKEN);
		assertThat(run(manifest.toString())).isEqualTo(ManifestCli.INVALID);
		assertThat(out()).containsExactly(
				manifest + ":2:3: defaults.failure_treshold: unknown key 'failure_treshold'; did you mean "
						+ "'failure_threshold'? (known keys: breaker, call_timeout_ms, failed_dependency_sheds, "
						+ "failure_threshold, health_check_interval_ms, hysteresis_seconds, min_samples, "
						+ "recovery_threshold, retry, timeout_ms, window_seconds)",
				manifest + ":7:79: tiers.enhanced.routes[0].requires[0]: 'recomendations-api' is not a declared "
						+ "dependency; declare it under 'dependencies'",
				manifest + ": invalid (2 problems)");
		assertThat(err()).isEmpty();
	}

	@Test
	void everyFileIsValidatedAndOneBrokenFileMakesTheStatusTwo() throws IOException {
		Path broken = write("broken.yaml", BROKEN);
		Path valid = write("valid.yaml", VALID);
		assertThat(run(broken.toString(), valid.toString())).isEqualTo(ManifestCli.INVALID);
		assertThat(out()).hasSize(4).endsWith(broken + ": invalid (2 problems)",
				valid + ": valid (2 dependencies, 2 tiers, 3 routes)");
	}

	@Test
	void aFileThatCannotBeReadIsAnErrorWithStatusOne() {
		Path missing = this.directory.resolve("missing.yaml");
		assertThat(run(missing.toString())).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
		assertThat(err()).containsExactly(missing + ": cannot read the file: no such file");
		assertThat(out()).isEmpty();
	}

	@Test
	void aMissingFileOutranksABrokenOneInTheExitStatus() throws IOException {
		Path broken = write("broken.yaml", BROKEN);
		assertThat(run(broken.toString(), this.directory.resolve("missing.yaml").toString()))
			.isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
	}

	@Test
	void withoutAFileTheUsageIsSuggestedWithStatusOne() {
		assertThat(run()).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
		assertThat(err()).containsExactly("degradation-manifest: no manifest file given", "Try --help.");
	}

	@Test
	void anUnknownOptionIsAUsageError() {
		assertThat(run("--strict", "manifest.yaml")).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
		assertThat(err()).first().isEqualTo("degradation-manifest: unknown option '--strict'");
	}

	@Test
	void anOptionWithoutItsValueIsAUsageError() {
		assertThat(run("--property")).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
		assertThat(err()).first().isEqualTo("degradation-manifest: '--property' needs a value");
	}

	@Test
	void aPropertyWithoutAValueIsAUsageError() {
		assertThat(run("--property", "catalog.url", "manifest.yaml")).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
		assertThat(err()).first()
			.isEqualTo("degradation-manifest: '--property catalog.url' must be --property <name>=<value>");
	}

	@Test
	void helpDescribesTheOptionsAndTheExitStatus() {
		assertThat(run("--help")).isEqualTo(ManifestCli.VALID);
		assertThat(String.join("\n", out())).contains("--reserved-base-path", "--property", "--lenient-placeholders",
				"--print-schema", "Exit status: 0", "in UTF-8");
	}

	@Test
	void theJsonSchemaCanBePrintedForAnEditor() {
		assertThat(run("--print-schema")).isEqualTo(ManifestCli.VALID);
		assertThat(String.join("\n", out())).startsWith("{")
			.contains("\"$schema\": \"http://json-schema.org/draft-07/schema#\"");
	}

	@Test
	void anUnresolvablePlaceholderIsAProblem() throws IOException {
		Path manifest = write("manifest.yaml", WITH_PLACEHOLDERS);
		assertThat(run(manifest.toString())).isEqualTo(ManifestCli.INVALID);
		assertThat(out()).first()
			.isEqualTo(manifest + ":3:17: dependencies.catalog.health_url: cannot resolve a placeholder in "
					+ "'${catalog.url}/healthz': Could not resolve placeholder 'catalog.url' in value "
					+ "\"${catalog.url}/healthz\"");
	}

	@Test
	void placeholdersNestedOrExpandedPastTheirBoundsAreProblemsWithStatusTwo() throws IOException {
		String nested = "${a:".repeat(5000) + "x" + "}".repeat(5000);
		Path manifest = write("manifest.yaml", WITH_PLACEHOLDERS.replace("${catalog.url}/healthz", nested));
		assertThat(run(manifest.toString())).isEqualTo(ManifestCli.INVALID);
		assertThat(out()).first().asString()
			.startsWith(manifest + ":3:17: dependencies.catalog.health_url: ")
			.contains("nests placeholders 5000 deep");
		this.out.reset();
		// Values that name each other twice over: 2^40 copies of bomb0 once expanded.
		List<String> args = new ArrayList<>(List.of("--lenient-placeholders", "-Dbomb0=xxxxxxxxxx"));
		for (int i = 1; i <= 40; i++) {
			args.add("-Dbomb" + i + "=${bomb" + (i - 1) + "}${bomb" + (i - 1) + "}");
		}
		args.add("-Dcatalog.url=${bomb40}");
		args.add(write("expanded.yaml", WITH_PLACEHOLDERS).toString());
		assertThat(run(args.toArray(String[]::new))).isEqualTo(ManifestCli.INVALID);
		assertThat(out()).first().asString()
			.startsWith(this.directory.resolve("expanded.yaml") + ":3:17: dependencies.catalog.health_url: "
					+ "cannot resolve the placeholders of '${catalog.url}/healthz'");
	}

	@Test
	void placeholdersResolveFromPropertiesGivenEitherWay() throws IOException {
		Path manifest = write("manifest.yaml", WITH_PLACEHOLDERS);
		assertThat(run("--property", "catalog.url=http://catalog:8080", manifest.toString()))
			.isEqualTo(ManifestCli.VALID);
		assertThat(run("-Dcatalog.url=http://catalog:8080", manifest.toString())).isEqualTo(ManifestCli.VALID);
		assertThat(run("--property=catalog.url=http://catalog:8080", manifest.toString()))
			.isEqualTo(ManifestCli.VALID);
	}

	@Test
	void lenientPlaceholdersLeaveTheValuesThatHoldThemUncheckedAndSaySo() throws IOException {
		Path manifest = write("manifest.yaml", """
				dependencies:
				  catalog:
				    health_url: ${catalog.url}/healthz
				    timeout_ms: ${catalog.timeout}
				    window_seconds: ${catalog.window}
				    min_samples: 100
				tiers:
				  optional:
				    priority: ${optional.priority}
				    routes:
				      - { path: /api/catalog, method: GET, fallback: drop, requires: [catalog] }
				""");
		assertThat(run("--lenient-placeholders", manifest.toString())).isEqualTo(ManifestCli.VALID);
		assertThat(out()).containsExactly(manifest + ": valid (1 dependency, 1 tier, 1 route; "
				+ "4 values with unresolved placeholders left unchecked)");
	}

	@Test
	void theReservedBasePathIsTheActuatorsByDefaultAndCanBeMovedOrDropped() throws IOException {
		Path manifest = write("manifest.yaml", """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /actuator/info, method: GET, fallback: drop }
				""");
		assertThat(run(manifest.toString())).isEqualTo(ManifestCli.INVALID);
		assertThat(run("--reserved-base-path", "/manage", manifest.toString())).isEqualTo(ManifestCli.VALID);
		assertThat(run("--reserved-base-path", "", manifest.toString())).isEqualTo(ManifestCli.VALID);
		assertThat(run("--reserved-base-path", "/actuator/", manifest.toString())).isEqualTo(ManifestCli.INVALID);
	}

	private int run(String... args) {
		this.out.reset();
		this.err.reset();
		return ManifestCli.run(args, new PrintStream(this.out, true, StandardCharsets.UTF_8),
				new PrintStream(this.err, true, StandardCharsets.UTF_8));
	}

	private List<String> out() {
		return lines(this.out);
	}

	private List<String> err() {
		return lines(this.err);
	}

	private static List<String> lines(ByteArrayOutputStream stream) {
		return new ArrayList<>(stream.toString(StandardCharsets.UTF_8).lines().toList());
	}

	private Path write(String name, String content) throws IOException {
		return Files.writeString(this.directory.resolve(name), content);
	}

}

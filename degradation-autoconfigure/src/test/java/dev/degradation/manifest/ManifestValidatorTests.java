package dev.degradation.manifest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The validator a build's own tests call, and the command line behind it: problems with their
 * positions, what a valid manifest declares, placeholders, and the reserved base path.
 */
class ManifestValidatorTests {

	private static final String VALID = """
			dependencies:
			  catalog: { health_url: "http://catalog:8080/healthz" }
			  search: { health_url: "http://search:8080/healthz" }
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalog] }
			      - { path: /api/suggestions, method: GET, fallback: drop, requires: [search] }
			  enhanced:
			    priority: 2
			    routes:
			      - { path: /api/related, method: GET, fallback: static, static_response: [], requires: [catalog] }
			""";

	private static final String BROKEN = """
			defaults:
			  hysteresis_second: 60
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/reviews, method: GET, fallback: drop, requires: [catalgo] }
			""";

	private static final String WITH_PLACEHOLDERS = """
			dependencies:
			  reviews:
			    health_url: ${reviews.url}/healthz
			    timeout_ms: ${reviews.timeout:1500}
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/reviews, method: GET, fallback: drop, requires: [reviews] }
			""";

	@TempDir
	Path directory;

	@Test
	void aBuildsOwnTestCanCheckItsManifestInOneLine() throws IOException {
		assertThat(ManifestValidator.standard().validate(write("valid.yaml", VALID))).isEmpty();
		Path broken = write("broken.yaml", BROKEN);
		assertThat(ManifestValidator.standard().validate(broken)).extracting(ManifestProblem::path)
			.containsExactly("defaults.hysteresis_second", "tiers.optional.routes[0].requires[0]");
		assertThat(ManifestValidator.standard()
			.withProperty("reviews.url", "http://reviews:8080")
			.validate(write("placeholders.yaml", WITH_PLACEHOLDERS))).isEmpty();
	}

	@Test
	void aValidManifestIsCheckedWithTheCountsOfWhatItDeclares() throws IOException {
		Path manifest = write("manifest.yaml", VALID);
		assertThat(ManifestValidator.standard().check(manifest))
			.isEqualTo(new ManifestCheck(manifest.toString(), List.of(), 2, 2, 3, 0))
			.satisfies((check) -> assertThat(check.isValid()).isTrue());
	}

	@Test
	void aBrokenManifestGivesEveryProblemInFileOrderWithItsLineColumnAndPath() throws IOException {
		Path manifest = write("broken.yaml", BROKEN);
		ManifestCheck check = ManifestValidator.standard().check(manifest);
		assertThat(check.isValid()).isFalse();
		assertThat(check.problems()).extracting(ManifestProblem::toString)
			.containsExactly(manifest + ":2:3: defaults.hysteresis_second: unknown key 'hysteresis_second'; did you "
					+ "mean 'hysteresis_seconds'? (known keys: breaker, call_timeout_ms, failed_dependency_sheds, "
					+ "failure_threshold, health_check_interval_ms, hysteresis_seconds, min_samples, "
					+ "recovery_threshold, retry, timeout_ms, "
					+ "window_seconds)",
					manifest + ":7:71: tiers.optional.routes[0].requires[0]: 'catalgo' is not a declared dependency; "
							+ "declare it under 'dependencies'");
	}

	@Test
	void anUnresolvablePlaceholderIsAProblem() {
		assertThat(ManifestValidator.standard().validate("manifest.yaml", bytes(WITH_PLACEHOLDERS)))
			.extracting(ManifestProblem::toString)
			.containsExactly("manifest.yaml:3:17: dependencies.reviews.health_url: cannot resolve a placeholder in "
					+ "'${reviews.url}/healthz': Could not resolve placeholder 'reviews.url' in value "
					+ "\"${reviews.url}/healthz\"");
	}

	@Test
	void aResolvedValueIsCheckedLikeAWrittenOne() {
		assertThat(ManifestValidator.standard()
			.withProperty("reviews.url", "reviews:8080")
			.withProperty("reviews.timeout", "0")
			.validate("manifest.yaml", bytes(WITH_PLACEHOLDERS))).extracting(ManifestProblem::toString)
			.containsExactly(
					"manifest.yaml:3:17: dependencies.reviews.health_url: 'reviews:8080/healthz' is not an absolute "
							+ "http or https URL; write one such as http://recommendations:8080/healthz, or name a "
							+ "service by id, as lb://recommendations/healthz",
					"manifest.yaml:4:17: dependencies.reviews.timeout_ms: 'timeout_ms' must be between 1 and "
							+ "2147483647, but it is 0");
	}

	@Test
	void lenientPlaceholdersLeaveTheValuesThatHoldThemUncheckedAndCountThem() {
		ManifestCheck check = ManifestValidator.standard().withLenientPlaceholders().check("manifest.yaml", bytes("""
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
				"""));
		assertThat(check).isEqualTo(new ManifestCheck("manifest.yaml", List.of(), 1, 1, 1, 4));
	}

	@Test
	void lenientPlaceholdersStillCheckTheirSyntaxAndEverythingElse() {
		assertThat(ManifestValidator.standard().withLenientPlaceholders().validate("manifest.yaml", bytes("""
				dependencies:
				  catalog:
				    health_url: ${catalog.url/healthz
				    timeout_ms: 0
				tiers:
				  optional:
				    priority: ${optional.priority}
				    routes:
				      - { path: /api/catalog, method: GET, fallback: drop, requires: [catalog] }
				"""))).extracting(ManifestProblem::toString)
			.containsExactly(
					"manifest.yaml:3:17: dependencies.catalog.health_url: '${catalog.url/healthz' has a '${' without "
							+ "its closing '}'; write placeholders as ${name} or ${name:default}",
					"manifest.yaml:4:17: dependencies.catalog.timeout_ms: 'timeout_ms' must be between 1 and "
							+ "2147483647, but it is 0");
	}

	@Test
	void theReservedBasePathIsTheActuatorsByDefaultAndCanBeMovedOrDropped() {
		byte[] manifest = bytes("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /actuator/info, method: GET, fallback: drop }
				""");
		assertThat(ManifestValidator.standard().validate("manifest.yaml", manifest)).isNotEmpty();
		assertThat(ManifestValidator.standard().withReservedBasePath("/manage").validate("manifest.yaml", manifest))
			.isEmpty();
		assertThat(ManifestValidator.standard().withReservedBasePath(null).validate("manifest.yaml", manifest))
			.isEmpty();
		assertThat(ManifestValidator.standard().withReservedBasePath("/actuator/").validate("manifest.yaml", manifest))
			.isNotEmpty();
	}

	@Test
	void aFileThatCannotBeReadIsAnExceptionForABuildsOwnTest() {
		assertThatExceptionOfType(UncheckedIOException.class)
			.isThrownBy(() -> ManifestValidator.standard().validate(this.directory.resolve("missing.yaml")))
			.withMessageEndingWith("missing.yaml: cannot read the file: no such file");
	}

	@Test
	void aFileLargerThanTheLimitIsReportedWithoutReadingItAll() throws IOException {
		Path large = this.directory.resolve("large.yaml");
		Files.write(large, new byte[ManifestLimits.DEFAULT.maxBytes() * 3]);
		assertThat(ManifestValidator.standard().validate(large)).singleElement()
			.satisfies((problem) -> assertThat(problem.message()).startsWith("the manifest is larger than the limit"));
	}

	private Path write(String name, String content) throws IOException {
		return Files.writeString(this.directory.resolve(name), content);
	}

	private static byte[] bytes(String yaml) {
		return yaml.getBytes(StandardCharsets.UTF_8);
	}

}

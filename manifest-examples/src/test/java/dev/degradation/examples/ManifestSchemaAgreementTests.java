package dev.degradation.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.core.io.Resource;
import org.springframework.mock.env.MockEnvironment;

import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.ManifestProblem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Runs a corpus of manifests ({@code corpus/valid/*.yaml}, {@code corpus/invalid/*.yaml}) and
 * every example through both the JSON Schema that editors use and the loader the starter uses,
 * and fails when one accepts what the other rejects. The loader may reject more, but only for the
 * rules a schema cannot express, listed in {@link LoaderOnlyRule}: an invalid corpus file that the
 * schema accepts must be named after one of them and be rejected by the loader for that reason.
 */
class ManifestSchemaAgreementTests {

	private static final Path CORPUS = Path.of("src/test/resources/corpus");

	// As the starter loads a manifest with the Actuator at its default path; the environment holds
	// the two properties the corpus resolves without a default.
	static final ManifestLoader LOADER = ManifestLoader.standard()
		.withReservedBasePath("/actuator")
		.withPlaceholderResolver(new MockEnvironment().withProperty("corpus.base-url", "http://catalog:8080")
			.withProperty("corpus.timeout-ms", "1500")::resolveRequiredPlaceholders);

	private static final ManifestSchema SCHEMA = ManifestSchema.load();

	/**
	 * The rules only the loader checks. Each is named by the prefix of the corpus files that break
	 * it and by a fragment of the loader's message for it.
	 */
	enum LoaderOnlyRule {

		/** A reference from a value ({@code requires}) to the keys of another mapping. */
		REQUIRES_UNDECLARED("requires-undeclared-", "is not a declared dependency"),

		/**
		 * Uniqueness of a pair of values (method and pattern, capture names aside) across lists in
		 * different objects.
		 */
		DUPLICATE_ROUTE("duplicate-route-", "a route may appear once"),

		/** Uniqueness of a value across the members of a mapping. */
		DUPLICATE_PRIORITY("duplicate-priority", "is already used by tier"),

		/** A comparison of two values, either of which may be inherited from {@code defaults}. */
		RECOVERY_NOT_BELOW_FAILURE("recovery-not-below-failure", "must be lower than 'failure_threshold'"),

		/** Arithmetic over three values, any of which may be inherited from {@code defaults}. */
		MIN_SAMPLES_UNREACHABLE("min-samples-unreachable", "can never be reached"),

		/** The grammar of Spring's PathPattern beyond its leading '/'. */
		PATH_PATTERN_SYNTAX("path-pattern-syntax-", "is not a valid path pattern"),

		/** The Actuator base path is the application's setting, not the manifest's. */
		RESERVED_BASE_PATH("reserved-base-path-", "is under the Actuator base path"),

		/**
		 * The full URI grammar of java.net.URI (escapes, hosts it reads as registry names); the
		 * schema checks the scheme, the host and the characters.
		 */
		HEALTH_URL_SYNTAX("health-url-syntax-", "is not an absolute http or https URL"),

		/** A JSON tree keeps one of two equal keys; YAML forbids them and the loader says where. */
		YAML_DUPLICATE_KEY("yaml-duplicate-key", "duplicate key"),

		/**
		 * YAML 1.2 has no merge keys; a reader of YAML 1.1, as an editor may be, merges the mapping
		 * and sees the keys it holds.
		 */
		YAML_MERGE_KEY("yaml-merge-key", "YAML merge keys"),

		/** Tags are no part of the JSON data model. */
		YAML_TAG("yaml-tag", "YAML tags such as"),

		/** A schema validates one document. */
		YAML_MULTIPLE_DOCUMENTS("yaml-multiple-documents", "more than one YAML document"),

		/** A placeholder's value is known only when the manifest loads in its environment. */
		PLACEHOLDER("placeholder-", "resolved to|cannot resolve a placeholder|must be between"),

		/** A reference from a pressure rule's value ({@code sheds}) to the keys of the tiers. */
		PRESSURE_SHEDS_UNKNOWN_TIER("pressure-sheds-unknown-tier", "unknown tier"),

		/** A comparison of two values of a pressure rule. */
		PRESSURE_RESTORE_NOT_BELOW_SHED("pressure-restore-not-below-shed", "must be below 'shed_above'"),

		/** A limit that protects the parser, not a rule of the format. */
		PARSING_LIMIT("parsing-limit-", "deeper than the limit");

		private final String prefix;

		private final String message;

		LoaderOnlyRule(String prefix, String message) {
			this.prefix = prefix;
			this.message = message;
		}

		static @Nullable LoaderOnlyRule of(String fileName) {
			return Arrays.stream(values()).filter((rule) -> fileName.startsWith(rule.prefix)).findFirst().orElse(null);
		}

		boolean explains(ManifestProblem problem) {
			return Arrays.stream(this.message.split("\\|")).anyMatch(problem.message()::contains);
		}

	}

	static Stream<Named<Path>> validManifests() {
		return corpus("valid");
	}

	static Stream<Named<Path>> invalidManifests() {
		return corpus("invalid");
	}

	static Stream<Named<Resource>> examples() {
		return ManifestExamplesTests.examples();
	}

	@Test
	void theCorpusHoldsAtLeastFortyManifestsOfBothKinds() {
		assertThat(validManifests()).hasSizeGreaterThanOrEqualTo(30);
		assertThat(invalidManifests()).hasSizeGreaterThanOrEqualTo(40);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("validManifests")
	void aValidManifestIsAcceptedByTheSchemaAndTheLoader(Path file) {
		byte[] content = read(file);
		assertThat(SCHEMA.validate(content)).as("schema errors").isEmpty();
		assertThat(loaderProblems(file, content)).as("loader problems").isEmpty();
	}

	@Test
	void aGeneratedManifestOfThousandsOfRoutesIsAcceptedByTheSchemaAndTheLoader() {
		// Ten tiers of 300 routes, with every fallback and capture variables, as a generator would
		// write them: about 250 kB.
		StringBuilder yaml = new StringBuilder("dependencies:\n  catalog:\n    health_url: http://catalog:8080/healthz\n"
				+ "tiers:\n");
		for (int tier = 1; tier <= 10; tier++) {
			yaml.append("  tier-").append(tier).append(":\n    priority: ").append(tier * 10).append("\n    routes:\n");
			for (int route = 1; route <= 300; route++) {
				yaml.append("      - { path: '/api/t").append(tier).append("/r").append(route).append("/{id}', method: ")
					.append((route % 2 == 0) ? "GET, fallback: static, static_response: { source: degraded }"
							: "POST, fallback: drop")
					.append(", requires: [catalog] }\n");
			}
		}
		byte[] content = yaml.toString().getBytes(StandardCharsets.UTF_8);
		assertThat(SCHEMA.validate(content)).as("schema errors").isEmpty();
		assertThat(LOADER.load("thousands-of-routes.yaml", content).routes()).hasSize(3000);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidManifests")
	void anInvalidManifestIsRejectedByTheLoaderAndByTheSchemaUnlessOnlyTheLoaderHasTheRule(Path file) {
		byte[] content = read(file);
		List<ManifestProblem> loaderProblems = loaderProblems(file, content);
		assertThat(loaderProblems).as("loader problems").isNotEmpty();
		LoaderOnlyRule rule = LoaderOnlyRule.of(file.getFileName().toString());
		List<String> schemaErrors = SCHEMA.validate(content);
		if (rule == null) {
			assertThat(schemaErrors).as("schema errors; if the schema cannot express the rule the loader applies "
					+ "here, name the file after a LoaderOnlyRule (loader: %s)", loaderProblems).isNotEmpty();
		}
		else {
			// A file filed under a loader-only rule that the schema rejects shows the schema can express
			// the rule after all, or that the file breaks another rule too: either way it is misfiled.
			assertThat(schemaErrors).as("schema errors of a file for the loader-only rule %s", rule).isEmpty();
			assertThat(loaderProblems).as("loader problems").anyMatch(rule::explains);
		}
	}

	@Test
	void everyLoaderOnlyRuleIsShownByACorpusFile() {
		List<String> invalid = invalidManifests().map((named) -> named.getPayload().getFileName().toString()).toList();
		assertThat(LoaderOnlyRule.values()).allSatisfy((rule) -> assertThat(invalid).as(rule.name())
			.anyMatch((name) -> name.startsWith(rule.prefix)));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("examples")
	void everyExampleIsValidUnderTheSchema(Resource example) throws IOException {
		assertThat(SCHEMA.validate(example.getContentAsByteArray())).isEmpty();
	}

	private static List<ManifestProblem> loaderProblems(Path file, byte[] content) {
		InvalidManifestException failure = catchThrowableOfType(InvalidManifestException.class,
				() -> LOADER.load(file.getFileName().toString(), content));
		return (failure != null) ? failure.getProblems() : List.of();
	}

	private static Stream<Named<Path>> corpus(String kind) {
		try (Stream<Path> files = Files.list(CORPUS.resolve(kind))) {
			return files.filter((file) -> file.toString().endsWith(".yaml"))
				.sorted()
				.map((file) -> Named.of(kind + "/" + file.getFileName(), file))
				.toList()
				.stream();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static byte[] read(Path file) {
		try {
			return Files.readAllBytes(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

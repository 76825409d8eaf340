package dev.degradation.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.degradation.manifest.ManifestValidator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the shaded jar with {@code java -jar}, as a CI job would, on the example manifests, on a
 * broken one, on the sample application's, whose health URLs are placeholders, on a generated one
 * of thousands of routes, and on the whole corpus of the schema agreement test, whose valid files
 * must all be valid and whose every line must be what the validator prints in-process: the jar is cut down to the classes the validator reaches, and this shows none it
 * needs was cut. What the jar prints does not depend on the machine's locale.
 */
class ManifestCliIntegrationTests {

	private static final Path JAR = Path.of(System.getProperty("cli.jar", "target/degradation-manifest-cli.jar"));

	private static final Path EXAMPLES = Path.of("../manifest-examples/src/main/resources/manifests");

	private static final Path CORPUS = Path.of("../manifest-examples/src/test/resources/corpus");

	private static final Path SAMPLE_MANIFEST = Path.of("../sample-app/src/main/resources/degradation-manifest.yaml");

	@TempDir
	Path directory;

	@Test
	void theJarRunsOnItsOwnAndHoldsOnlyTheManifestPartOfTheStarter() throws IOException {
		try (JarFile jar = new JarFile(JAR.toFile())) {
			assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
				.isEqualTo(ManifestCli.class.getName());
			List<String> entries = Collections.list(jar.entries()).stream().map(ZipEntry::getName).toList();
			assertThat(entries).contains("dev/degradation/cli/ManifestCli.class",
					"dev/degradation/manifest/ManifestValidator.class", ManifestValidator.SCHEMA_LOCATION);
			assertThat(entries).filteredOn((name) -> name.startsWith("dev/degradation/") && name.endsWith(".class"))
				.isNotEmpty()
				.allMatch((name) -> name.startsWith("dev/degradation/manifest/") || name.startsWith("dev/degradation/cli/"));
			assertThat(entries).noneMatch((name) -> name.startsWith("org/springframework/boot/"));
		}
	}

	@Test
	void everyExampleIsValid() throws Exception {
		List<String> examples;
		try (Stream<Path> files = Files.list(EXAMPLES)) {
			examples = files.filter((file) -> file.toString().endsWith(".yaml")).map(Path::toString).sorted().toList();
		}
		Run run = run(examples.toArray(String[]::new));
		assertThat(run.status()).as(run.toString()).isZero();
		assertThat(run.out()).hasSameSizeAs(examples)
			.allSatisfy((line) -> assertThat(line)
				.matches(".*\\.yaml: valid \\(\\d+ dependencies, \\d+ tiers, \\d+ routes\\)"));
		assertThat(run.out())
			.contains(EXAMPLES.resolve("online-store.yaml") + ": valid (3 dependencies, 2 tiers, 4 routes)");
	}

	@Test
	void aBrokenManifestGivesPositionedProblemsAndStatusTwo() throws Exception {
		Path broken = Files.writeString(this.directory.resolve("broken.yaml"), """
				defaults:
				  failure_treshold: 0.5
				tiers:
				  enhanced:
				    priority: 1
				    routes:
				      - path: /actuator/health
				        method: TRACE
				        fallback: drop
				""");
		Run run = run(broken.toString());
		assertThat(run.status()).as(run.toString()).isEqualTo(2);
		assertThat(run.out()).containsExactly(
				broken + ":2:3: defaults.failure_treshold: unknown key 'failure_treshold'; did you mean "
						+ "'failure_threshold'? (known keys: breaker, call_timeout_ms, failed_dependency_sheds, "
						+ "failure_threshold, health_check_interval_ms, hysteresis_seconds, min_samples, "
						+ "recovery_threshold, retry, timeout_ms, window_seconds)",
				broken + ":7:15: tiers.enhanced.routes[0].path: '/actuator/health' is under the Actuator base path "
						+ "'/actuator'; the degradation controls must stay reachable, so no route may be shed there",
				broken + ":8:17: tiers.enhanced.routes[0].method: 'TRACE' is not an HTTP method this starter can "
						+ "degrade; use one of DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT",
				broken + ": invalid (3 problems)");
		assertThat(run.err()).isEmpty();
	}

	@Test
	void theJarPrintsForEveryManifestOfTheCorpusWhatTheValidatorPrintsInProcess() throws Exception {
		List<String> files;
		try (Stream<Path> valid = Files.list(CORPUS.resolve("valid"));
				Stream<Path> invalid = Files.list(CORPUS.resolve("invalid"))) {
			files = Stream.concat(valid, invalid).map(Path::toString).sorted().toList();
		}
		assertThat(files).hasSizeGreaterThan(100);
		String[] args = files.toArray(String[]::new);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ManifestCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8));
		Run run = run(args);
		assertThat(run.status()).isEqualTo(status).isEqualTo(ManifestCli.INVALID);
		assertThat(run.out()).isEqualTo(out.toString(StandardCharsets.UTF_8).lines().toList());
		assertThat(run.err()).isEmpty();
	}

	@Test
	void everyValidManifestOfTheCorpusIsValidForTheJar() throws Exception {
		List<String> valid;
		try (Stream<Path> files = Files.list(CORPUS.resolve("valid"))) {
			valid = files.map(Path::toString).sorted().toList();
		}
		List<String> args = new ArrayList<>(List.of("--property", "corpus.base-url=http://catalog:8080", "--property",
				"corpus.timeout-ms=1500"));
		args.addAll(valid);
		Run run = run(args.toArray(String[]::new));
		assertThat(run.status()).as(run.toString()).isZero();
		assertThat(run.out()).hasSameSizeAs(valid)
			.allSatisfy((line) -> assertThat(line).matches(".*\\.yaml: valid \\(.*\\)"));
		assertThat(run.err()).isEmpty();
	}

	@Test
	void aGeneratedManifestOfThousandsOfRoutesIsValidForTheJar() throws Exception {
		// One tier of 5000 routes in flow style, about 300 kB.
		StringBuilder yaml = new StringBuilder("tiers:\n  generated:\n    priority: 1\n    routes: [\n");
		for (int route = 0; route < 5000; route++) {
			yaml.append("      { path: '/api/items/").append(route).append("/{id}', method: ")
				.append((route % 2 == 0) ? "get" : "PUT")
				.append(", fallback: static, static_response: { n: ").append(route).append(" } },\n");
		}
		Path generated = Files.writeString(this.directory.resolve("generated.yaml"), yaml.append("    ]\n"));
		Run run = run(generated.toString());
		assertThat(run.status()).as(run.toString()).isZero();
		assertThat(run.out()).containsExactly(generated + ": valid (0 dependencies, 1 tier, 5000 routes)");
	}

	@Test
	void placeholdersOfTheSampleAreResolvedFromPropertiesOrLeftUnchecked() throws Exception {
		String manifest = SAMPLE_MANIFEST.toString();
		Run strict = run(manifest);
		assertThat(strict.status()).as(strict.toString()).isEqualTo(2);
		assertThat(strict.out()).first()
			.asString()
			.contains("Could not resolve placeholder 'sample.dependencies.recommendations-api.url'");

		Run withProperty = run("--property", "sample.dependencies.recommendations-api.url=http://127.0.0.1:9001",
				"--property", "sample.dependencies.analytics-collector.url=http://127.0.0.1:9002", "-D"
						+ "sample.dependencies.personalization-service.url=http://127.0.0.1:9003",
				manifest);
		assertThat(withProperty.status()).as(withProperty.toString()).isZero();
		assertThat(withProperty.out()).containsExactly(manifest + ": valid (3 dependencies, 2 tiers, 5 routes)");

		Run lenient = run("--lenient-placeholders", manifest);
		assertThat(lenient.status()).as(lenient.toString()).isZero();
		assertThat(lenient.out()).containsExactly(manifest + ": valid (3 dependencies, 2 tiers, 5 routes; "
				+ "6 values with unresolved placeholders left unchecked)");
	}

	@Test
	void theSchemaPrintedIsTheOneInTheStarter() throws Exception {
		Run run = run("--print-schema");
		assertThat(run.status()).as(run.toString()).isZero();
		try (InputStream schema = getClass().getClassLoader().getResourceAsStream(ManifestValidator.SCHEMA_LOCATION)) {
			assertThat(schema).isNotNull();
			assertThat(run.rawOut()).isEqualTo(new String(schema.readAllBytes(), StandardCharsets.UTF_8));
		}
	}

	@Test
	void aMistakeOnTheCommandLineIsStatusOneWithAHint() throws Exception {
		Run run = run("--strict", "manifest.yaml");
		assertThat(run.status()).isEqualTo(1);
		assertThat(run.err()).containsExactly("degradation-manifest: unknown option '--strict'", "Try --help.");
		Run missing = run(this.directory.resolve("missing.yaml").toString());
		assertThat(missing.status()).isEqualTo(1);
		assertThat(missing.err()).singleElement()
			.asString()
			.endsWith("missing.yaml: cannot read the file: no such file");
	}

	@Test
	void theJarPrintsTheSameUtf8BytesWhateverTheLocaleAndTheEncodingsItImplies() throws Exception {
		Path broken = Files.writeString(this.directory.resolve("broken-unicode.yaml"), """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/größe, method: GÉT, fallback: statiç }
				  café: []
				""");
		Path latin1 = Files.write(this.directory.resolve("latin-1.yaml"),
				"tiers:\n  café:\n".getBytes(StandardCharsets.ISO_8859_1));
		String[] args = { broken.toString(), latin1.toString(), CORPUS.resolve("valid/unicode.yaml").toString(),
				this.directory.resolve("missing.yaml").toString() };
		Run here = run(args);
		Run bare = runWithoutLocale(args);
		assertThat(bare.status()).isEqualTo(here.status()).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
		assertThat(bare.rawOut()).isEqualTo(here.rawOut());
		assertThat(bare.outBytes()).isEqualTo(here.outBytes());
		assertThat(bare.errBytes()).isEqualTo(here.errBytes()).isNotEmpty();
		// The same, and UTF-8: not question marks, not the digits of the default locale.
		assertThat(bare.out()).contains(
				broken + ":5:37: tiers.optional.routes[0].method: 'GÉT' is not an HTTP method this starter can "
						+ "degrade; use one of DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT; did you mean 'GET'?",
				broken + ":5:52: tiers.optional.routes[0].fallback: 'statiç' is not a fallback; use one of drop, "
						+ "stale, static, unavailable; did you mean 'static'?",
				latin1 + ":2:6: the manifest is not valid UTF-8: byte 0xE9 at offset 12; save the file as UTF-8");
		assertThat(bare.out()).anySatisfy((line) -> assertThat(line).contains("'café' is not a valid tier name"));
		Run schemaHere = run("--print-schema");
		assertThat(runWithoutLocale("--print-schema").outBytes()).isEqualTo(schemaHere.outBytes()).isNotEmpty();
	}

	private Run run(String... args) throws Exception {
		return run(List.of(), args);
	}

	/**
	 * Run the jar as on a machine without a locale: no LANG, LANGUAGE or LC_* in its environment,
	 * every encoding the JVM takes from the locale set to ASCII, and, for what is formatted by
	 * locale, an Arabic one, whose digits are not ASCII.
	 */
	private Run runWithoutLocale(String... args) throws Exception {
		return run(List.of("-Dfile.encoding=ANSI_X3.4-1968", "-Dstdout.encoding=ANSI_X3.4-1968",
				"-Dstderr.encoding=ANSI_X3.4-1968", "-Dsun.stdout.encoding=ANSI_X3.4-1968",
				"-Dsun.stderr.encoding=ANSI_X3.4-1968", "-Duser.language=ar", "-Duser.country=EG"), args);
	}

	private Run run(List<String> jvmOptions, String... args) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of(java));
		command.addAll(jvmOptions);
		command.addAll(List.of("-jar", JAR.toString()));
		command.addAll(List.of(args));
		Path out = Files.createTempFile(this.directory, "out", ".txt");
		Path err = Files.createTempFile(this.directory, "err", ".txt");
		ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
		if (!jvmOptions.isEmpty()) {
			builder.environment()
				.keySet()
				.removeIf((name) -> name.equals("LANG") || name.equals("LANGUAGE") || name.startsWith("LC_"));
		}
		Process process = builder.start();
		// A bound, not a pause: the validator answers in well under a second.
		boolean exited = process.waitFor(60, TimeUnit.SECONDS);
		if (!exited) {
			process.destroyForcibly();
		}
		assertThat(exited).as("exited within 60 s: " + command).isTrue();
		return new Run(process.exitValue(), Files.readAllBytes(out), Files.readAllBytes(err));
	}

	/**
	 * What one run of the jar printed, as bytes, and returned.
	 */
	record Run(int status, byte[] outBytes, byte[] errBytes) {

		String rawOut() {
			return new String(this.outBytes, StandardCharsets.UTF_8);
		}

		List<String> out() {
			return rawOut().lines().toList();
		}

		List<String> err() {
			return new String(this.errBytes, StandardCharsets.UTF_8).lines().toList();
		}

		@Override
		public String toString() {
			return "status " + this.status + ", out:\n" + rawOut() + "err:\n"
					+ new String(this.errBytes, StandardCharsets.UTF_8);
		}

	}

}

package dev.degradation.manifest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.degradation.manifest.ManifestLoading.failure;
import static dev.degradation.manifest.ManifestLoading.load;
import static dev.degradation.manifest.ManifestLoading.onlyProblem;
import static dev.degradation.manifest.ManifestLoading.problem;
import static dev.degradation.manifest.ManifestLoading.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Hostile and broken YAML: every limit and every YAML feature the manifest refuses is reported
 * quickly, with a position, and without building anything the file asks for: alias bombs are
 * refused at the alias that crosses a limit, without expanding anything. Each test has a
 * few seconds, far more than any takes, so that one that stops being quick fails instead of
 * holding the build.
 */
@Timeout(10)
class ManifestParsingLimitsTests {

	private static final String VALID = """
			tiers:
			  optional:
			    priority: 1
			    routes:
			      - { path: /api/recommendations, method: GET, fallback: drop }
			""";

	private static final int MEBIBYTE = 1024 * 1024;

	@Test
	void aDuplicateKeyIsReportedAtTheSecondKeyWithTheLineOfTheFirstAndLoadingGoesOn() {
		assertThat(problems("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: TRACE
				        fallback: drop
				    priority: 2
				""")).containsExactly(
				problem(6, 17, "tiers.optional.routes[0].method",
						"'TRACE' is not an HTTP method this starter can degrade; use one of DELETE, GET, HEAD, OPTIONS, "
								+ "PATCH, POST, PUT"),
				problem(8, 5, "tiers.optional.priority",
						"duplicate key 'priority' (first at line 3); each key may appear once"));
	}

	@Test
	void aManifestLargerThanTheSizeLimitIsRefusedBeforeParsing() {
		ManifestLoader loader = ManifestLoading.LOADER.withLimits(new ManifestLimits(64, 32));
		assertThat(onlyProblem(loader, VALID)).isEqualTo(problem(1, 1, "",
				"the manifest is larger than the limit of 64 bytes; a manifest describes routes, "
						+ "it should be a few kilobytes"));
	}

	@Test
	void aManifestOfExactlyTheSizeLimitIsAccepted() {
		int size = VALID.getBytes(StandardCharsets.UTF_8).length;
		ManifestLoader loader = ManifestLoading.LOADER.withLimits(new ManifestLimits(size, 32));
		assertThat(load(loader, VALID).routes()).hasSize(1);
	}

	@Test
	void aTwoMegabyteManifestIsRefusedByTheDefaultLimit() {
		byte[] content = padded(VALID, 2 * MEBIBYTE);
		assertThat(failure(ManifestLoading.LOADER, content).getProblems()).containsExactly(problem(1, 1, "",
				"the manifest is larger than the limit of 1048576 bytes; a manifest describes routes, "
						+ "it should be a few kilobytes"));
	}

	@Test
	void aTwoMegabyteStreamIsReadOnlyJustPastTheDefaultLimit() {
		ByteArrayInputStream input = new ByteArrayInputStream(padded(VALID, 2 * MEBIBYTE));
		InvalidManifestException failure = catchThrowableOfType(InvalidManifestException.class,
				() -> ManifestLoading.LOADER.load(ManifestLoading.SOURCE, input));
		assertThat(failure.getProblems()).singleElement()
			.satisfies((problem) -> assertThat(problem.message()).startsWith("the manifest is larger than the limit"));
		assertThat(input.available()).isEqualTo(2 * MEBIBYTE - MEBIBYTE - 1);
	}

	@Test
	void nestingDeeperThanTheLimitIsReportedAtTheFirstContainerPastIt() {
		// Depth 1 is the document, 5 a route, 6 its static_response, 8 the value of "b".
		ManifestLoader loader = ManifestLoading.LOADER.withLimits(new ManifestLimits(MEBIBYTE, 8));
		assertThat(onlyProblem(loader, """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - path: /api/recommendations
				        method: GET
				        fallback: static
				        static_response: {"a": {"b": {"c": {"d": [[1]]}}}}
				""")).isEqualTo(problem(8, 44, "tiers.optional.routes[0].static_response.a.b.c",
				"the manifest nests mappings and lists deeper than the limit of 8 levels here"));
	}

	@Test
	void tenThousandNestedListsAreRefusedAtTheDefaultDepthLimit() {
		String yaml = "x: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n";
		// The document is level 1 and the value of x level 2, so the 32nd '[' is the 33rd level.
		assertThat(onlyProblem(yaml)).isEqualTo(problem(1, 3 + 32, "x" + "[0]".repeat(31),
				"the manifest nests mappings and lists deeper than the limit of 32 levels here"));
	}

	@Test
	void aMergeKeyIsRefusedAtTheKeyAndNothingElseIsGuessedAboutTheKeysItWouldHaveMerged() {
		assertThat(onlyProblem("""
				tiers:
				  optional: &tier
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				  enhanced:
				    <<: *tier
				    priority: 2
				""")).isEqualTo(problem(7, 5, "tiers.enhanced.<<", "YAML merge keys ('<<') are not part of YAML 1.2, "
				+ "which a manifest is written in; alias the whole mapping, or write its keys out"));
	}

	@Test
	void aQuotedLessThanLessThanIsAnOrdinaryKey() {
		DegradationManifest manifest = load("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: GET, fallback: static, static_response: { "<<": "shift" } }
				""");
		assertThat(manifest.routes()).extracting(Route::fallback)
			.containsExactly(new Fallback.Static("{\"<<\":\"shift\"}"));
	}

	@Test
	void aBillionLaughsDocumentIsRefusedQuicklyAtTheAliasThatExpandsItPastTheLimit() {
		// Nine times nine ... nine times "lol": 387 million values once expanded. Each level is
		// counted from the one before without expanding it, so the seventh is refused at once.
		List<ManifestProblem> problems = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> problems("""
				a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
				b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
				c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
				d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
				e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
				f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
				g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
				h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
				i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
				"""));
		assertThat(problems).containsExactly(problem(7, 8, "g[0]", "the manifest holds more values than the limit "
				+ "of 1000000 here, its YAML aliases expanded; a manifest describes routes, it should hold a few "
				+ "thousand"));
	}

	@Test
	void aBillionLaughsDocumentOfMappingsIsRefusedQuicklyToo() {
		StringBuilder yaml = new StringBuilder("a0: &a0 {k: lol}\n");
		for (int level = 1; level <= 40; level++) {
			yaml.append("a").append(level).append(": &a").append(level).append(" {");
			for (int key = 0; key < 2; key++) {
				yaml.append((key > 0) ? ", " : "").append("k").append(key).append(": *a").append(level - 1);
			}
			yaml.append("}\n");
		}
		// Two to the fortieth values once expanded, in 41 short lines.
		List<ManifestProblem> problems = assertTimeoutPreemptively(Duration.ofSeconds(5),
				() -> problems(yaml.toString()));
		assertThat(problems).singleElement()
			.satisfies((problem) -> assertThat(problem.message()).startsWith("the manifest holds more values than the "
					+ "limit of 1000000 here, its YAML aliases expanded"));
	}

	@Test
	void aliasesBeyondTheLimitAreRefusedAtTheFirstAliasPastIt() {
		ManifestLoader loader = ManifestLoading.LOADER.withLimits(new ManifestLimits(MEBIBYTE, 32, 2, 1000));
		assertThat(onlyProblem(loader, """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: GET, fallback: static, static_response: &body { items: [] } }
				      - { path: /api/b, method: GET, fallback: static, static_response: *body }
				      - { path: /api/c, method: GET, fallback: static, static_response: *body }
				      - { path: /api/d, method: GET, fallback: static, static_response: *body }
				""")).isEqualTo(problem(8, 73, "tiers.optional.routes[3].static_response",
				"the manifest uses more YAML aliases than the limit of 2"));
	}

	@Test
	void anAliasThatNestsItsValuePastTheDepthLimitIsReportedAtTheAlias() {
		// Depth 1 is the document, 5 a route, 6 its static_response; the anchored value nests three
		// levels more, so written at depth 6 it reaches 8, the limit, and aliased at depth 7, 9.
		ManifestLoader loader = ManifestLoading.LOADER.withLimits(new ManifestLimits(MEBIBYTE, 8));
		assertThat(onlyProblem(loader, """
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: GET, fallback: static, static_response: &deep {"a": {"b": [1]}} }
				      - { path: /api/b, method: GET, fallback: static, static_response: {"wrapped": *deep} }
				""")).isEqualTo(problem(6, 85, "tiers.optional.routes[1].static_response.wrapped",
				"the manifest nests mappings and lists deeper than the limit of 8 levels here"));
	}

	@Test
	void aliasesNestedInAliasesCannotDeepenTheTreePastTheDepthLimit() {
		// Each level holds the one before one level deeper: without the depth of an alias counted,
		// a few hundred lines would nest thousands of levels.
		StringBuilder yaml = new StringBuilder("a0: &a0 [x]\n");
		for (int level = 1; level <= 40; level++) {
			yaml.append("a").append(level).append(": &a").append(level).append(" [*a").append(level - 1)
				.append("]\n");
		}
		assertThat(problems(yaml.toString())).singleElement()
			.satisfies((problem) -> assertThat(problem.message())
				.isEqualTo("the manifest nests mappings and lists deeper than the limit of 32 levels here"));
	}

	@Test
	void anExplicitTagIsReportedAtTheTaggedValue() {
		assertThat(onlyProblem("""
				tiers: !!java.lang.Runtime
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(1, 8, "tiers",
				"YAML tags such as '!!java.lang.Runtime' are not allowed in a manifest; write the plain value"));
	}

	@Test
	void aScriptEngineGadgetIsReportedTagByTag() {
		assertThat(problems("""
				!!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL ["http://localhost/"]]]]
				""")).containsExactly(
				problem(1, 1, "", "YAML tags such as '!!javax.script.ScriptEngineManager' are not allowed in a manifest; "
						+ "write the plain value"),
				problem(1, 1, "", "the manifest must be a mapping with the keys 'defaults', 'dependencies' and 'tiers', "
						+ "but it is a list"),
				problem(1, 37, "[0]",
						"YAML tags such as '!!java.net.URLClassLoader' are not allowed in a manifest; write the plain value"),
				problem(1, 65, "[0][0][0]",
						"YAML tags such as '!!java.net.URL' are not allowed in a manifest; write the plain value"));
	}

	@Test
	void aTagNamingAClassOfTheApplicationDoesNotCreateIt() {
		Canary.INSTANCES.set(0);
		List<ManifestProblem> problems = problems("""
				dependencies: !!dev.degradation.manifest.ManifestParsingLimitsTests$Canary ["created"]
				""" + VALID);
		assertThat(problems).first().isEqualTo(problem(1, 15, "dependencies",
				"YAML tags such as '!!dev.degradation.manifest.ManifestParsingLimitsTests$Canary' are not allowed "
						+ "in a manifest; write the plain value"));
		assertThat(Canary.INSTANCES).hasValue(0);
	}

	@Test
	void bytesThatAreNotUtf8AreReportedAtTheCharacterWhereTheyStand() {
		byte[] latin1 = "tiers:\n  café:\n".getBytes(StandardCharsets.ISO_8859_1);
		assertThat(failure(ManifestLoading.LOADER, latin1).getProblems()).containsExactly(problem(2, 6, "",
				"the manifest is not valid UTF-8: byte 0xE9 at offset 12; save the file as UTF-8"));
	}

	@Test
	void theColumnOfABadByteCountsCharactersNotBytes() {
		ByteArrayOutputStream content = new ByteArrayOutputStream();
		content.writeBytes("tiers:\n  ü".getBytes(StandardCharsets.UTF_8));
		content.write(0xFF);
		assertThat(failure(ManifestLoading.LOADER, content.toByteArray()).getProblems()).containsExactly(
				problem(2, 4, "", "the manifest is not valid UTF-8: byte 0xFF at offset 11; save the file as UTF-8"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "\n\n", "# degradation manifest, to be written\n", "---\n", "---\n...\n", "~\n" })
	void anEmptyManifestIsReportedAtItsStart(String yaml) {
		assertThat(onlyProblem(yaml)).isEqualTo(problem(1, 1, "",
				"the manifest is empty; it needs at least a 'tiers' section"));
	}

	@Test
	void aManifestThatIsAListIsReportedAtItsStart() {
		assertThat(onlyProblem("""
				- tiers
				- dependencies
				""")).isEqualTo(problem(1, 1, "", "the manifest must be a mapping with the keys 'defaults', "
				+ "'dependencies' and 'tiers', but it is a list"));
	}

	@Test
	void aManifestThatIsAScalarIsReportedAtItsStart() {
		assertThat(onlyProblem("""
				degradation manifest
				""")).isEqualTo(problem(1, 1, "", "the manifest must be a mapping with the keys 'defaults', "
				+ "'dependencies' and 'tiers', but it is the text 'degradation manifest'"));
	}

	@Test
	void aSecondDocumentIsReportedWhereItStarts() {
		assertThat(onlyProblem(VALID + """
				---
				tiers: {}
				""")).isEqualTo(problem(7, 1, "",
				"the manifest holds more than one YAML document; put everything in one document"));
	}

	@Test
	void badIndentationIsReportedAtTheMisplacedKey() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				   routes:
				      - { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(4, 4, "", "the manifest is not valid YAML: expected <block end>, but found "
				+ "'<block mapping start>' (while parsing a block mapping started at line 2, column 3); "
				+ "check the indentation"));
	}

	@Test
	void anUnclosedBracketIsReportedWhereItOpens() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes: [ { path: /api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(4, 13, "", "the manifest is not valid YAML: expected ',' or ']', but got "
				+ "<stream end> (while parsing a flow sequence started at line 4, column 13)"));
	}

	@Test
	void anUnclosedQuoteIsReportedWhereItOpens() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: "/api/recommendations, method: GET, fallback: drop }
				""")).isEqualTo(problem(5, 17, "", "the manifest is not valid YAML: found unexpected end of stream "
				+ "(while scanning a quoted scalar started at line 5, column 17)"));
	}

	@Test
	void aTabUsedForIndentationIsReportedWhereItStands() {
		assertThat(onlyProblem("tiers:\n\toptional:\n")).isEqualTo(problem(2, 1, "",
				"the manifest is not valid YAML: found character '\\t(TAB)' that cannot start any token. "
						+ "(Do not use \\t(TAB) for indentation)"));
	}

	@Test
	void aFlowMappingWithAnUnquotedBraceInAPathIsReportedAtTheBrace() {
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/products/{id}, method: GET, fallback: drop }
				""")).isEqualTo(problem(5, 31, "", "the manifest is not valid YAML: expected ',' or '}', but got { "
				+ "(while parsing a flow mapping started at line 5, column 9); "
				+ "put text that contains '{', '}', '[', ']' or ',' in quotes"));
	}

	@Test
	void aNumberLongerThanTheLimitIsRefusedBeforeItIsRead() {
		// Reading a number takes time that grows with the square of its length: 900,000 digits
		// took half a minute before this limit.
		assertThat(onlyProblem("defaults:\n  timeout_ms: " + "9".repeat(100_000) + "\n" + VALID))
			.isEqualTo(problem(2, 15, "defaults.timeout_ms",
					"a number of 100000 characters is longer than the limit of 100; write the value the key needs"));
	}

	@Test
	void aNumberOfAHundredCharactersIsStillReadAndRangeChecked() {
		String number = "1" + "0".repeat(99);
		assertThat(onlyProblem("defaults:\n  timeout_ms: " + number + "\n" + VALID)).isEqualTo(problem(2, 15,
				"defaults.timeout_ms", "'timeout_ms' must be between 1 and 2147483647, but it is " + number));
	}

	@ParameterizedTest
	@ValueSource(strings = { "timeout_ms: 1e999999999", "timeout_ms: -1e999999999", "timeout_ms: 1.5e-999999999",
			"failure_threshold: 1e999999999", "recovery_threshold: -1e-999999999" })
	void aNumberWithAHugeExponentIsComparedWithoutWritingItOut(String entry) {
		// A dozen characters for a billion digits: expanding it ran out of memory.
		ManifestProblem problem = onlyProblem("defaults:\n  " + entry + "\n" + VALID);
		assertThat(problem.path()).isEqualTo("defaults." + entry.substring(0, entry.indexOf(':')));
		assertThat(problem.message()).hasSizeLessThan(200)
			.containsPattern("but it is -?1(\\.5)?E[-+]999999999$");
	}

	@Test
	void controlCharactersOfAValueAreShownEscapedSoThatTheyCannotActOnATerminal() {
		// An escape sequence that would turn a terminal red, a line break that would forge a
		// problem line of its own, and a right-to-left override that would reorder what is shown.
		assertThat(onlyProblem("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /api/a, method: "\\e[31mGET\\nmanifest.yaml:1:1: fine\\u202E", fallback: drop }
				""").message())
			.startsWith("'\\u001B[31mGET\\u000Amanifest.yaml:1:1: fine\\u202E' is not an HTTP method");
	}

	@Test
	void aLongValueIsShortenedInItsProblemWithItsLength() {
		String key = "k".repeat(50_000);
		// An explicit key ('? '), since YAML allows implicit keys of at most 1024 characters.
		ManifestProblem problem = onlyProblem(VALID + "? " + key + "\n: 1\n");
		assertThat(problem.message()).startsWith("unknown key '" + "k".repeat(75) + "…" + "k".repeat(24)
				+ "' (50000 characters)").hasSizeLessThan(400);
		assertThat(problem.path()).hasSize(ProblemText.MAX_LINE).contains("…");
	}

	@Test
	void aNulCharacterIsReportedWhereItStands() {
		assertThat(onlyProblem("tiers:\n  optional\u0000:\n")).isEqualTo(problem(2, 11, "",
				"the manifest is not valid YAML: the character U+0000 is not allowed in YAML; remove it"));
	}

	@Test
	void aUtf16FileIsReportedAsNotUtf8AtItsFirstByte() {
		byte[] utf16 = ("\uFEFF" + VALID).getBytes(StandardCharsets.UTF_16LE);
		assertThat(failure(ManifestLoading.LOADER, utf16).getProblems()).containsExactly(problem(1, 1, "",
				"the manifest is not valid UTF-8: byte 0xFF at offset 0; save the file as UTF-8"));
	}

	@Test
	void beyondAHundredProblemsTheRestAreCountedInsteadOfListed() {
		StringBuilder yaml = new StringBuilder(VALID);
		for (int i = 1; i <= 150; i++) {
			yaml.append("unknown").append(i).append(": 1\n");
		}
		List<ManifestProblem> problems = problems(yaml.toString());
		assertThat(problems).hasSize(Problems.MAX_LISTED + 1);
		assertThat(problems.get(Problems.MAX_LISTED - 1).path()).isEqualTo("unknown100");
		assertThat(problems.get(Problems.MAX_LISTED)).isEqualTo(problem(105, 1, "",
				"50 more problems are not listed; fix the ones above and load the manifest again"));
	}

	private static byte[] padded(String yaml, int size) {
		StringBuilder padded = new StringBuilder(yaml);
		String comment = "# " + "padding ".repeat(12) + "\n";
		while (padded.length() + comment.length() < size) {
			padded.append(comment);
		}
		padded.append("#".repeat(size - padded.length() - 1)).append('\n');
		return padded.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * A class a tag could name; creating it would show that the loader builds what a file asks.
	 */
	static final class Canary {

		static final AtomicInteger INSTANCES = new AtomicInteger();

		Canary(String name) {
			INSTANCES.incrementAndGet();
		}

	}

}

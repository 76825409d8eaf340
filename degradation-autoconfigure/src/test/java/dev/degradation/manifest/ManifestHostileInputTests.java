package dev.degradation.manifest;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import org.springframework.util.PropertyPlaceholderHelper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Generated manifests, valid and broken: whatever the bytes, the loader either loads them or
 * rejects them with an {@link InvalidManifestException} whose problems all point at a line and a
 * column, quickly, and never fails in another way. Valid manifests are built from the format's
 * rules; broken ones are random text and bytes, random YAML trees, deep nesting, and random
 * mutations of valid manifests. The tries are bounded so that the class runs in seconds; each load
 * is also bounded in time, so that a hang fails the property instead of the build.
 */
class ManifestHostileInputTests {

	/** Far above what any input here takes; a hang or a pathological slowdown still fails. */
	private static final Duration PER_LOAD = Duration.ofSeconds(5);

	private static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

	private static final List<String> KEYS = List.of("defaults", "dependencies", "tiers", "health_check_interval_ms",
			"timeout_ms", "window_seconds", "min_samples", "failure_threshold", "recovery_threshold",
			"hysteresis_seconds", "health_url", "priority", "routes", "path", "method", "fallback", "static_response",
			"requires");

	/**
	 * Values that are wrong somewhere, or everywhere: other types, huge and tiny numbers (a billion
	 * digits written in a dozen characters), YAML syntax, placeholders, odd Unicode (a byte order
	 * mark, a lone surrogate, right-to-left text, emoji, a NUL), and long text.
	 */
	private static final List<String> HOSTILE_VALUES = List.of("~", "''", "\"\"", "[]", "{}", "[[[[", "}}", "1e999",
			"-1e999", "1e-999", "1e999999999", "-1.5e999999999", "1e-999999999", "9".repeat(5000), "-0", "0.0",
			"99999999999999999999999999", "2147483648", "-2147483649", "0x1F", "0o17", ".inf", "-.inf", ".nan",
			"1_000", "+1", "yes", "Null", "TRUE", "${", "${}", "${x", "${placeholder}", "${unknown}", "${unknown:7}",
			"\"${a:${b:${c}}}\"", "&anchor", "*alias", "!!str", "!!java.lang.Runtime", "|", ">-", "? key", "- item",
			"'unterminated", "\"\\ud800\"", "\uFEFF", "\u202Eevil", "🚦🚦", "\u0000", "\t", "'\u2028'", "ÿ",
			"x".repeat(10_000), "/api/{id}", "/api/**/x", "http://", "http://[::1", "GET", "drop", "static",
			"/actuator/x");

	/**
	 * Fragments of YAML syntax that mutations insert anywhere, and characters that are hard on a
	 * reader: line ends other than a line feed, halves of surrogate pairs, whole pairs (which the YAML
	 * parser failed on where its reads cut them in two), a NUL.
	 */
	private static final List<String> HOSTILE_FRAGMENTS = List.of(":", ": ", "- ", "{", "}", "[", "]", ",", "&a ",
			"*a", "!!map ", "#", "'", "\"", "\n", "\n  ", "\t", "  ", "---\n", "...\n", "%YAML 1.2\n", "? ", "|\n",
			"<<: *a\n", "\\", "\r", "\u0085", "\uFEFF", "\uD83D", "\uDE00", "🚦", "𝄞", "\u0000", "${", "}");

	private static final PropertyPlaceholderHelper PLACEHOLDER_HELPER = new PropertyPlaceholderHelper("${", "}",
			":", '\\', false);

	private static final Map<String, String> PROPERTIES = Map.of("placeholder", "1500", "url", "http://catalog");

	/** As the starter loads a manifest: the Actuator reserved, placeholders resolved like Spring. */
	private static final ManifestLoader LOADER = ManifestLoader.standard()
		.withReservedBasePath("/actuator")
		.withPlaceholderResolver(resolver());

	@Property(tries = 150)
	void aGeneratedValidManifestLoadsWithEverythingItDeclares(@ForAll("validManifests") GeneratedManifest generated) {
		DegradationManifest manifest = assertTimeoutPreemptively(PER_LOAD,
				() -> LOADER.load("generated.yaml", generated.yaml().getBytes(StandardCharsets.UTF_8)));
		assertThat(manifest.dependencies()).hasSize(generated.dependencies());
		assertThat(manifest.tiers()).hasSize(generated.tiers());
		assertThat(manifest.routes()).hasSize(generated.routes());
	}

	@Property(tries = 300)
	void aMutatedValidManifestLoadsOrIsRejectedWithPositionedProblems(
			@ForAll("validManifests") GeneratedManifest generated, @ForAll("mutations") List<Mutation> mutations) {
		String yaml = generated.yaml();
		for (Mutation mutation : mutations) {
			yaml = mutation.apply(yaml);
		}
		loadsOrIsRejectedWithPositionedProblems(yaml.getBytes(StandardCharsets.UTF_8));
	}

	@Property(tries = 200)
	void aRandomYamlTreeLoadsOrIsRejectedWithPositionedProblems(@ForAll("yamlTrees") String yaml) {
		loadsOrIsRejectedWithPositionedProblems(yaml.getBytes(StandardCharsets.UTF_8));
	}

	@Property(tries = 200)
	void randomTextIsRejectedWithPositionedProblems(@ForAll("randomText") String text) {
		loadsOrIsRejectedWithPositionedProblems(text.getBytes(StandardCharsets.UTF_8));
	}

	@Property(tries = 200)
	void randomBytesAreRejectedWithPositionedProblems(@ForAll("randomBytes") byte[] bytes) {
		loadsOrIsRejectedWithPositionedProblems(bytes);
	}

	@Property(tries = 100)
	void deepNestingIsRejectedWithPositionedProblems(@ForAll("deepNesting") String yaml) {
		loadsOrIsRejectedWithPositionedProblems(yaml.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Load the content; any exception but {@link InvalidManifestException} escapes and fails the
	 * property.
	 * @return the problems, empty when the manifest loaded
	 */
	private static List<ManifestProblem> loadsOrIsRejectedWithPositionedProblems(byte[] content) {
		List<ManifestProblem> problems = assertTimeoutPreemptively(PER_LOAD, () -> {
			try {
				LOADER.load("hostile.yaml", content);
				return List.<ManifestProblem>of();
			}
			catch (InvalidManifestException ex) {
				assertThat(ex.getProblems()).isNotEmpty();
				return ex.getProblems();
			}
		});
		assertThat(problems).allSatisfy((problem) -> {
			assertThat(problem.source()).isEqualTo("hostile.yaml");
			assertThat(problem.position().line()).as(problem.toString()).isPositive();
			assertThat(problem.position().column()).as(problem.toString()).isPositive();
			assertThat(problem.message()).as(problem.toString()).isNotBlank();
			// One printable line each, however hostile the text it quotes.
			assertThat(problem.toString()).as(problem.toString())
				.hasSizeLessThan(2 * ProblemText.MAX_LINE + 100)
				.doesNotContainPattern("[\\p{Cntrl}\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069]");
		});
		return problems;
	}

	@Provide
	Arbitrary<GeneratedManifest> validManifests() {
		Arbitrary<List<String>> dependencyNames = names().list().uniqueElements().ofMaxSize(4);
		return dependencyNames.flatMap((dependencies) -> {
			Arbitrary<String> defaults = healthCheck(true).injectNull(0.3);
			Arbitrary<List<String>> dependencyBlocks = Combinators.combine(urls(), healthCheck(false))
				.as((url, settings) -> "    health_url: " + url + "\n" + settings)
				.list()
				.ofSize(dependencies.size());
			Arbitrary<List<Integer>> priorities = Arbitraries.integers().between(1, 1000).list().uniqueElements()
				.ofMinSize(1).ofMaxSize(4);
			return Combinators.combine(defaults, dependencyBlocks, priorities, names().list().uniqueElements()
				.ofSize(4)).flatAs((defaultsBlock, blocks, tierPriorities, tierNames) -> {
					Arbitrary<List<List<String>>> routes = route(dependencies).list().ofMinSize(1).ofMaxSize(4)
						.list().ofSize(tierPriorities.size());
					return routes.map((tierRoutes) -> render(defaultsBlock, dependencies, blocks, tierPriorities,
							tierNames, tierRoutes));
				});
		});
	}

	private static GeneratedManifest render(String defaults, List<String> dependencies, List<String> blocks,
			List<Integer> priorities, List<String> tierNames, List<List<String>> routes) {
		StringBuilder yaml = new StringBuilder("# generated\n");
		if (defaults != null) {
			yaml.append("defaults:\n").append(defaults.replace("    ", "  "));
		}
		if (!dependencies.isEmpty()) {
			yaml.append("dependencies:\n");
			for (int i = 0; i < dependencies.size(); i++) {
				yaml.append("  \"").append(dependencies.get(i)).append("\":\n").append(blocks.get(i));
			}
		}
		yaml.append("tiers:\n");
		int routeCount = 0;
		for (int tier = 0; tier < priorities.size(); tier++) {
			yaml.append("  \"").append(tierNames.get(tier)).append("\":\n    priority: ").append(priorities.get(tier))
				.append("\n    routes:\n");
			List<String> tierRoutes = routes.get(tier);
			for (int route = 0; route < tierRoutes.size(); route++) {
				// The tier and the route's index make every method and pattern unique.
				yaml.append(tierRoutes.get(route).replace("{path}", "/t" + tier + "/r" + route));
				routeCount++;
			}
		}
		return new GeneratedManifest(yaml.toString(), dependencies.size(), priorities.size(), routeCount);
	}

	/**
	 * The health check keys, each present or not, in ranges that keep {@code min_samples}
	 * reachable (even while every probe takes its timeout) and the recovery threshold below the
	 * failure threshold, indented for a dependency.
	 */
	private static Arbitrary<String> healthCheck(boolean defaults) {
		Arbitrary<Integer> interval = Arbitraries.integers().between(100, 10_000);
		Arbitrary<Integer> window = Arbitraries.integers().between(10, 86_400);
		Arbitrary<Integer> failurePercent = Arbitraries.integers().between(20, 100);
		return Combinators.combine(interval, window, failurePercent, Arbitraries.integers().between(1, 60_000),
				Arbitraries.integers().between(0, 3600), Arbitraries.integers().between(0, 63))
			.as((intervalMs, drawnWindowSeconds, failure, timeout, hysteresis, present) -> {
				// '${placeholder}' resolves to 1500.
				long timeoutMs = (timeout % 2 == 0) ? 1500 : timeout;
				long period = intervalMs + timeoutMs;
				// The window holds at least one probe that takes its whole timeout, or no
				// min_samples could be reached (a 20 s window with a 47 s timeout once slipped through).
				long windowSeconds = Math.max(drawnWindowSeconds, (period + 999) / 1000);
				long reachable = Math.min(10_000, windowSeconds * 1000 / period);
				StringBuilder keys = new StringBuilder();
				appendIf(keys, present, 0, "health_check_interval_ms", String.valueOf(intervalMs));
				appendIf(keys, present, 1, "window_seconds", String.valueOf(windowSeconds));
				appendIf(keys, present, 2, "min_samples", String.valueOf(Math.max(1, reachable / 2)));
				appendIf(keys, present, 3, "failure_threshold", String.valueOf(failure / 100.0));
				appendIf(keys, present, 4, "recovery_threshold", String.valueOf((failure - 10) / 100.0));
				String timeoutValue = (timeout % 2 == 0) ? "${placeholder}" : String.valueOf(timeout);
				appendIf(keys, present, 5, "timeout_ms", timeoutValue);
				if (defaults && hysteresis % 2 == 0) {
					keys.append("    hysteresis_seconds: ").append(hysteresis).append('\n');
				}
				return keys.toString();
			});
	}

	private static void appendIf(StringBuilder keys, int present, int bit, String key, String value) {
		// A key set alone could break a rule its partner's default makes: thresholds, and the
		// window's keys with the timeout (which bounds how many probes the window holds), come
		// together or not at all.
		int group = switch (bit) {
			case 0, 1, 2, 5 -> 0b100111;
			case 3, 4 -> 0b11000;
			default -> 1 << bit;
		};
		if ((present & group) == group) {
			keys.append("    ").append(key).append(": ").append(value).append('\n');
		}
	}

	private static Arbitrary<String> route(List<String> dependencies) {
		Arbitrary<String> method = Arbitraries.of(METHODS);
		Arbitrary<String> suffix = Arbitraries.of("", "/{id}", "/**", "/{*rest}", "/items/{id:\\d+}", "/ä", "/a.json");
		Arbitrary<List<String>> requires = dependencies.isEmpty() ? Arbitraries.just(List.of())
				: Arbitraries.of(dependencies).list().uniqueElements().ofMaxSize(dependencies.size());
		// Null and empty text are no body, for the loader as for YAML.
		Arbitrary<String> body = jsonValues().filter((json) -> !json.equals("null") && !json.equals("\"\""));
		Arbitrary<String> fallback = Arbitraries.oneOf(Arbitraries.just("        fallback: drop\n"),
				body.map((json) -> "        fallback: static\n        static_response: " + json + "\n"));
		// Names and paths are quoted: a name such as 12 or true is text only in quotes, and a
		// regular expression keeps its backslash only in single quotes.
		return Combinators.combine(method, suffix, requires, fallback)
			.as((m, s, r, f) -> "      - path: '/api{path}" + s + "'\n        method: " + m + "\n" + f
					+ (r.isEmpty() ? "" : "        requires: [" + r.stream().map((name) -> "\"" + name + "\"")
						.collect(Collectors.joining(", ")) + "]\n"));
	}

	private static Arbitrary<String> jsonValues() {
		Arbitrary<String> scalars = Arbitraries.oneOf(Arbitraries.integers().map(String::valueOf),
				Arbitraries.of("true", "false", "null", "\"degraded\"", "\"ünïcödé 🚦\"", "0.5", "\"\""));
		return Arbitraries.recursive(() -> scalars,
				(inner) -> Arbitraries.oneOf(inner.list().ofMaxSize(3).map(ManifestHostileInputTests::flowSequence),
						Combinators.combine(names(), inner).as(Tuple::of)
							.list()
							.uniqueElements(Tuple.Tuple2::get1)
							.ofMaxSize(3)
							.map((entries) -> "{ " + entries.stream()
								.map((entry) -> "\"" + entry.get1() + "\": " + entry.get2())
								.collect(Collectors.joining(", ")) + " }")),
				0, 4);
	}

	private static Arbitrary<String> names() {
		Arbitrary<Character> first = Arbitraries.chars().alpha().numeric();
		Arbitrary<String> rest = Arbitraries.strings().alpha().numeric().withChars("._-").ofMaxLength(20);
		return Combinators.combine(first, rest).as((f, r) -> f + r);
	}

	private static Arbitrary<String> urls() {
		return Arbitraries.of("http://catalog:8080/healthz", "https://catalog.example.com/health?deep=true",
				"http://10.0.0.1/healthz", "http://[::1]:8081/healthz", "${url}/healthz",
				"${missing:http://catalog}/healthz");
	}

	@Provide
	Arbitrary<List<Mutation>> mutations() {
		Arbitrary<Mutation> mutation = Combinators.combine(Arbitraries.of(MutationKind.class),
				Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1),
				Arbitraries.oneOf(Arbitraries.of(HOSTILE_FRAGMENTS), Arbitraries.of(HOSTILE_VALUES),
						Arbitraries.of(KEYS), Arbitraries.strings().all().ofMaxLength(8)))
			.as(Mutation::new);
		return mutation.list().ofMinSize(1).ofMaxSize(6);
	}

	@Provide
	Arbitrary<String> yamlTrees() {
		Arbitrary<String> scalars = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(HOSTILE_VALUES)),
				Tuple.of(2, Arbitraries.integers().map(String::valueOf)),
				Tuple.of(1, Arbitraries.bigIntegers().between(java.math.BigInteger.TEN.pow(30).negate(),
						java.math.BigInteger.TEN.pow(30)).map(String::valueOf)),
				Tuple.of(1, Arbitraries.strings().all().ofMaxLength(12).map(ManifestHostileInputTests::quoted)));
		Arbitrary<String> keys = Arbitraries.oneOf(Arbitraries.of(KEYS), names(),
				Arbitraries.strings().all().ofMinLength(1).ofMaxLength(6).map(ManifestHostileInputTests::quoted));
		Arbitrary<String> tree = Arbitraries.recursive(() -> scalars,
				(inner) -> Arbitraries.oneOf(inner.list().ofMaxSize(3).map(ManifestHostileInputTests::flowSequence),
						Combinators.combine(keys, inner).as((key, value) -> key + ": " + value)
							.list()
							.ofMaxSize(3)
							.map((entries) -> "{" + String.join(", ", entries) + "}")),
				0, 5);
		return Combinators.combine(keys, tree).as((key, value) -> key + ": " + value).list().ofMinSize(1).ofMaxSize(4)
			.map((entries) -> String.join("\n", entries) + "\n");
	}

	@Provide
	Arbitrary<String> randomText() {
		return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(200),
				Arbitraries.strings().withChars("abc:-[]{},&*!|>'\"#\n\t %@`?~").ofMaxLength(200));
	}

	@Provide
	Arbitrary<byte[]> randomBytes() {
		return Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
	}

	@Provide
	Arbitrary<String> deepNesting() {
		Arbitrary<String> opener = Arbitraries.of("[", "{a: ", "- ", "{? ", "[{\"k\": ");
		return Combinators.combine(opener.list().ofMinSize(1).ofMaxSize(400), Arbitraries.integers().between(0, 100))
			.as((openers, closedPercent) -> {
				StringBuilder yaml = new StringBuilder("tiers: ");
				openers.forEach(yaml::append);
				yaml.append("x");
				// Close some or all of what was opened, innermost first.
				int closed = openers.size() * closedPercent / 100;
				IntStream.range(0, closed).mapToObj((i) -> openers.get(openers.size() - 1 - i)).forEach((open) -> {
					if (open.startsWith("[{")) {
						yaml.append("}]");
					}
					else if (open.startsWith("[")) {
						yaml.append("]");
					}
					else if (open.startsWith("{")) {
						yaml.append("}");
					}
				});
				return yaml.append('\n').toString();
			});
	}

	private static String flowSequence(List<String> items) {
		return "[" + String.join(", ", items) + "]";
	}

	private static String quoted(String text) {
		return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
	}

	private static UnaryOperator<String> resolver() {
		return (text) -> PLACEHOLDER_HELPER.replacePlaceholders(text, PROPERTIES::get);
	}

	/**
	 * A valid manifest as YAML with the numbers of what it declares.
	 */
	record GeneratedManifest(String yaml, int dependencies, int tiers, int routes) {

		@Override
		public String toString() {
			return this.yaml;
		}

	}

	enum MutationKind {

		INSERT, REPLACE, DELETE, DUPLICATE_LINE, SWAP_LINES, INDENT, DEDENT, REPLACE_VALUE, DROP_LINE

	}

	/**
	 * One edit of a text, at positions given as fractions of its length so that the edit applies to
	 * any text and shrinks well.
	 */
	record Mutation(MutationKind kind, double at, double other, String text) {

		String apply(String yaml) {
			if (yaml.isEmpty()) {
				return this.text;
			}
			int position = (int) (this.at * yaml.length());
			List<String> lines = new ArrayList<>(yaml.lines().toList());
			int line = Math.min(lines.size() - 1, (int) (this.at * lines.size()));
			int otherLine = Math.min(lines.size() - 1, (int) (this.other * lines.size()));
			switch (this.kind) {
				case INSERT -> {
					return yaml.substring(0, position) + this.text + yaml.substring(position);
				}
				case REPLACE -> {
					int end = Math.min(yaml.length(), position + 1 + (int) (this.other * 8));
					return yaml.substring(0, position) + this.text + yaml.substring(end);
				}
				case DELETE -> {
					int end = Math.min(yaml.length(), position + 1 + (int) (this.other * 40));
					return yaml.substring(0, position) + yaml.substring(end);
				}
				case DUPLICATE_LINE -> lines.add(line, lines.get(line));
				case SWAP_LINES -> {
					String swapped = lines.get(line);
					lines.set(line, lines.get(otherLine));
					lines.set(otherLine, swapped);
				}
				case INDENT -> lines.set(line, " ".repeat(1 + (int) (this.other * 4)) + lines.get(line));
				case DEDENT -> lines.set(line, lines.get(line).stripLeading());
				case REPLACE_VALUE -> {
					String current = lines.get(line);
					int colon = current.indexOf(": ");
					if (colon >= 0) {
						lines.set(line, current.substring(0, colon + 2) + this.text);
					}
				}
				case DROP_LINE -> lines.remove(line);
			}
			return String.join("\n", lines) + "\n";
		}

	}

}

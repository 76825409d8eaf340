package dev.degradation.manifest;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A fallback kind and a health source's key that the loader is given are read as the built-in
 * ones are: the kind's keys are route keys, checked against the kind a route names, and its own
 * problems are positioned where its keys are written; a dependency that writes a source's key is
 * judged by it, and by it alone; without them, a manifest that uses them fails as at startup.
 */
class PluggedKindsTests {

	private static final FallbackKind<Notice> NOTICE = new FallbackKind<>() {

		@Override
		public String name() {
			return "notice";
		}

		@Override
		public String summary() {
			return "'notice' as a text body";
		}

		@Override
		public String answer() {
			return "answers with its notice";
		}

		@Override
		public List<FallbackKey> keys() {
			return List.of(FallbackKey.required("notice", "the text to answer with"),
					FallbackKey.allowed("notice_status", "the status of the notice"));
		}

		@Override
		public @Nullable Notice read(FallbackKeys keys) {
			String text = keys.text("notice");
			Long status = keys.has("notice_status") ? keys.wholeNumber("notice_status", 200, 299) : Long.valueOf(200);
			if (text != null && text.length() > 20) {
				keys.problem("notice", "a notice is at most 20 characters");
				return null;
			}
			return (text != null && status != null) ? new Notice(text, status.intValue()) : null;
		}

	};

	private static final HealthSourceKey LINE = new HealthSourceKey("status_board_line",
			"the line of the status board that says whether it is up");

	private static final ManifestLoader LOADER = ManifestLoader.standard()
		.withFallbackKinds(List.of(NOTICE))
		.withHealthSourceKeys(List.of(LINE));

	@Test
	void aRouteOfAPluggedKindIsReadWithItsKeys() {
		DegradationManifest manifest = LOADER.load("plugged.yaml", bytes("""
				dependencies:
				  ledger:
				    status_board_line: ledger
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /a, method: GET, fallback: notice, notice: resting, notice_status: 202, requires: [ledger] }
				      - { path: /b, method: GET, fallback: drop }
				"""));
		assertThat(manifest.routes().get(0).fallback()).isEqualTo(new Notice("resting", 202));
		Dependency ledger = manifest.dependencies().get(0);
		assertThat(ledger.sourceKey("status_board_line")).isEqualTo("ledger");
		assertThat(ledger.healthUrl()).isNull();
		assertThat(ledger.probed()).isTrue();
	}

	@Test
	void theKeysOfAPluggedKindAreCheckedAsTheBuiltInOnesAre() {
		assertThat(problems("""
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /a, method: GET, fallback: notice }
				      - { path: /b, method: GET, fallback: drop, notice: resting }
				      - { path: /c, method: GET, fallback: notice, notice: "far too long for a notice" }
				      - { path: /d, method: GET, fallback: notice, notice: ok, notice_status: 500 }
				      - { path: /e, method: GET, fallback: notise }
				""")).containsExactly(
				"plugged.yaml:5:9: tiers.optional.routes[0].notice: a 'notice' fallback needs 'notice': the text to "
						+ "answer with",
				"plugged.yaml:6:50: tiers.optional.routes[1].notice: a 'drop' fallback answers 204 with no body, so "
						+ "'notice' would never be sent; remove it or use 'fallback: notice'",
				"plugged.yaml:7:60: tiers.optional.routes[2].notice: a notice is at most 20 characters",
				"plugged.yaml:8:79: tiers.optional.routes[3].notice_status: 'notice_status' must be between 200 and 299, "
						+ "but it is 500",
				"plugged.yaml:9:44: tiers.optional.routes[4].fallback: 'notise' is not a fallback; use one of drop, "
						+ "notice, stale, static, unavailable; did you mean 'notice'?");
	}

	@Test
	void withoutThePluggedKindARouteThatNamesItFailsWithItsPosition() {
		assertThatExceptionOfType(InvalidManifestException.class)
			.isThrownBy(() -> ManifestLoader.standard().load("plugged.yaml", bytes("""
					tiers:
					  optional:
					    priority: 1
					    routes:
					      - { path: /a, method: GET, fallback: notice, notice: resting }
					""")))
			.satisfies((ex) -> assertThat(ex.getProblems()).extracting(ManifestProblem::toString)
				.containsExactly("plugged.yaml:5:44: tiers.optional.routes[0].fallback: 'notice' is not a fallback; "
						+ "use one of drop, stale, static, unavailable",
						"plugged.yaml:5:52: tiers.optional.routes[0].notice: unknown key 'notice' (known keys: "
								+ "content_type, fallback, headers, max_stale_seconds, method, name, path, requires, "
								+ "retry_after_seconds, static_response, status, vary_by)"));
	}

	@Test
	void theValidatorKnowsTheApplicationsKindsOnlyWhenGivenThem() {
		byte[] manifest = bytes("""
				dependencies:
				  ledger:
				    status_board_line: ledger
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /a, method: GET, fallback: notice, notice: resting, requires: [ledger] }
				""");
		assertThat(ManifestValidator.standard().withPlugins(List.of(NOTICE), List.of(LINE)).check("plugged.yaml",
				manifest).problems()).isEmpty();
		assertThat(ManifestValidator.standard().check("plugged.yaml", manifest).problems())
			.extracting(ManifestProblem::message)
			.contains("'notice' is not a fallback; use one of drop, stale, static, unavailable");
	}

	@Test
	void aDependencyIsJudgedByOneJudgeOnly() {
		assertThat(problems("""
				dependencies:
				  ledger:
				    health_url: http://ledger/healthz
				    status_board_line: ledger
				tiers:
				  optional:
				    priority: 1
				    routes:
				      - { path: /a, method: GET, fallback: drop, requires: [ledger] }
				""")).containsExactly("plugged.yaml:4:5: dependencies.ledger.status_board_line: a dependency is judged "
				+ "by one of ['health_url', 'status_board_line'], not several; remove all but one");
	}

	@Test
	void aKindMayNotTakeTheNameOfAnother() {
		FallbackKind<Notice> drop = new FallbackKind<>() {

			@Override
			public String name() {
				return "drop";
			}

			@Override
			public String summary() {
				return "";
			}

			@Override
			public String answer() {
				return "";
			}

			@Override
			public List<FallbackKey> keys() {
				return List.of();
			}

			@Override
			public @Nullable Notice read(FallbackKeys keys) {
				return null;
			}

		};
		assertThatIllegalArgumentException().isThrownBy(() -> ManifestLoader.standard().withFallbackKinds(List.of(drop)))
			.withMessageStartingWith("Two fallback kinds are named 'drop'");
	}

	private static List<String> problems(String yaml) {
		try {
			LOADER.load("plugged.yaml", bytes(yaml));
			return List.of();
		}
		catch (InvalidManifestException ex) {
			return ex.getProblems().stream().map(ManifestProblem::toString).toList();
		}
	}

	private static byte[] bytes(String yaml) {
		return yaml.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The fallback of the test's kind.
	 */
	record Notice(String text, int status) implements Fallback {

		@Override
		public String kind() {
			return "notice";
		}

		@Override
		public int answerStatus() {
			return this.status;
		}

	}

}

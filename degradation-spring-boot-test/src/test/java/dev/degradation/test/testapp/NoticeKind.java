package dev.degradation.test.testapp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.FallbackKey;
import dev.degradation.manifest.FallbackKeys;
import dev.degradation.manifest.Route;
import dev.degradation.web.Answer;
import dev.degradation.web.FallbackWriter;
import dev.degradation.web.RequestView;
import dev.degradation.web.ServedAnswer;
import dev.degradation.web.ServedFallbackKind;
import dev.degradation.web.StaleAnswers;

/**
 * A fallback kind that only the tests declare, as an application would: {@code fallback: notice}
 * answers its {@code notice} as plain text, with {@code notice_status} (200 unless written). It
 * owns its keys, its answer, its writer and what the contract tests expect of it; the starter
 * knows it only as a bean.
 */
public class NoticeKind implements ServedFallbackKind<NoticeKind.Notice> {

	/** The name of the kind, in {@code fallback}. */
	public static final String NAME = "notice";

	private static final String NOTICE = "notice";

	private static final String NOTICE_STATUS = "notice_status";

	private static final String TEXT_PLAIN = "text/plain;charset=UTF-8";

	private final boolean shouting;

	/**
	 * Create the kind.
	 */
	public NoticeKind() {
		this(false);
	}

	/**
	 * Create the kind.
	 * @param shouting whether its writer answers the notice in capitals, which is not what the
	 * manifest declares: a broken writer, for the contract tests to catch
	 */
	public NoticeKind(boolean shouting) {
		this.shouting = shouting;
	}

	@Override
	public String name() {
		return NAME;
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
		return List.of(FallbackKey.required(NOTICE, "the text to answer with, such as \"back soon\""),
				FallbackKey.allowed(NOTICE_STATUS, "the status code of the notice, 200 unless written"));
	}

	@Override
	public @Nullable Notice read(FallbackKeys keys) {
		String text = keys.text(NOTICE);
		Long status = keys.has(NOTICE_STATUS) ? keys.wholeNumber(NOTICE_STATUS, 200, 299) : Long.valueOf(200);
		if (status != null && status == 204) {
			keys.problem(NOTICE_STATUS, "204 has no body to hold the notice; use 'fallback: drop'");
			return null;
		}
		return (text != null && status != null) ? new Notice(text, status.intValue()) : null;
	}

	@Override
	public FallbackWriter writer(Route route, Notice fallback, StaleAnswers staleAnswers) {
		String text = this.shouting ? fallback.text().toUpperCase(Locale.ROOT) : fallback.text();
		return new NoticeWriter(route.tier(), new Answer(fallback.status(), new String[] { "Content-Type", TEXT_PLAIN },
				text.getBytes(StandardCharsets.UTF_8)));
	}

	@Override
	public List<String> differences(Route route, Notice fallback, ServedAnswer answer) {
		List<String> differences = new ArrayList<>();
		String contentType = answer.header("Content-Type");
		if (contentType == null || !contentType.startsWith("text/plain")) {
			differences.add("its content type is " + contentType + " instead of text/plain");
		}
		if (!answer.body().equals(fallback.text())) {
			differences.add("its body is " + answer.body() + " instead of the manifest's notice " + fallback.text());
		}
		return differences;
	}

	@Override
	public String expected(Notice fallback, String method) {
		return method.equals("HEAD") ? "" : ", Content-Type: text/plain, body " + fallback.text();
	}

	/**
	 * A notice as the manifest declares it.
	 *
	 * @param text the text to answer with
	 * @param status the status
	 */
	public record Notice(String text, int status) implements Fallback {

		@Override
		public String kind() {
			return NAME;
		}

		@Override
		public int answerStatus() {
			return this.status;
		}

	}

	/**
	 * Writes the notice prepared when the route table is compiled.
	 */
	static final class NoticeWriter extends FallbackWriter {

		private final Answer answer;

		NoticeWriter(String tier, Answer answer) {
			super(tier);
			this.answer = answer;
		}

		@Override
		protected Answer body(RequestView request) {
			return this.answer;
		}

	}

}

package dev.degradation.web;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.stream.Stream;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

import dev.degradation.engine.DegradationState;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Route;

/**
 * Prepares the fallback answer of one route as an {@link Answer} that either web stack writes.
 * Everything it sends is prepared when the route table is compiled, so that a fallback costs less
 * than the route it replaces. The writer of a {@code stale} route is the one that reads something
 * per request: the stored copy of the request's answer ({@link StaleAnswers}).
 *
 * <p>Each {@link ServedFallbackKind} makes the writers of its routes; a kind of the application
 * extends this class with the answer it prepared, and the markers of a degraded answer are added
 * here, the same for every kind.
 */
public abstract class FallbackWriter {

	private final String tier;

	/**
	 * Create the writer of a route's fallback.
	 * @param tier the route's tier, sent in {@code X-Degradation-Tier}
	 */
	protected FallbackWriter(String tier) {
		this.tier = tier;
	}

	/**
	 * Return the writer for a route's fallback that keeps no copies: a {@code stale} route gets a
	 * store of its own with the default bounds.
	 * @param route the route, of a built-in kind
	 * @return the writer
	 */
	public static FallbackWriter of(Route route) {
		return of(route, new StaleAnswers(StaleAnswers.Limits.DEFAULT, Clock.systemUTC()));
	}

	/**
	 * Return the writer for a route's fallback of a built-in kind.
	 * @param route the route
	 * @param staleAnswers where a {@code stale} route keeps its copies
	 * @return the writer
	 * @see FallbackKinds#writer(Route, StaleAnswers)
	 */
	public static FallbackWriter of(Route route, StaleAnswers staleAnswers) {
		return FallbackKinds.builtIn().writer(route, staleAnswers);
	}

	/**
	 * Return the fallback answer, marked as degraded.
	 * @param request the request being answered
	 * @param state the state in which the route was shed
	 * @param cause why the route is shed, from {@link DegradationState#shedCause(int)}
	 * @return the answer
	 */
	public final Answer answer(RequestView request, DegradationState state, String cause) {
		// A degraded answer must never be cached as if it were the real one.
		return body(request).withHeadersFirst(DegradationHeaders.DEGRADED, "true", DegradationHeaders.TIER, this.tier,
				DegradationHeaders.REASON, cause, DegradationHeaders.LEVEL, state.levelHeader(), "Cache-Control",
				"no-store");
	}

	/**
	 * Return the answer of a request without the markers of a degraded answer, which
	 * {@link #answer} adds; called per request, so it should return what it prepared.
	 * @param request the request being answered
	 * @return the answer
	 */
	protected abstract Answer body(RequestView request);

	/**
	 * Whether this answer is small enough to be written in turn with the other cheap answers
	 * ({@link CheapAnswerTurns}): it fits a socket's send buffer, so that no slow reader can hold a
	 * turn. A stale copy's size is not known before it is read, so it is not.
	 */
	public boolean small() {
		return true;
	}

	/**
	 * {@code 204 No Content}.
	 */
	static final class Drop extends FallbackWriter {

		Drop(String tier) {
			super(tier);
		}

		private static final Answer NO_CONTENT = new Answer(204, new String[0], Answer.EMPTY);

		@Override
		protected Answer body(RequestView request) {
			return NO_CONTENT;
		}

	}

	/**
	 * A fixed body with its status, content type and headers.
	 */
	static final class Static extends FallbackWriter {

		/**
		 * The largest body that counts as {@link #small()}, and so is written in turn with the
		 * other cheap answers: what fits a socket's send buffer at once.
		 */
		private static final int MAX_SMALL_BODY_BYTES = 16 * 1024;

		private final Answer answer;

		Static(String tier, Fallback.Static fallback) {
			super(tier);
			String[] headers = Stream
				.concat(fallback.headers()
					.entrySet()
					.stream()
					.flatMap((header) -> Stream.of(header.getKey(), header.getValue())),
						Stream.of("Content-Type", fallback.contentType()))
				.toArray(String[]::new);
			this.answer = new Answer(fallback.status(), headers, fallback.body().getBytes(StandardCharsets.UTF_8));
		}

		@Override
		public boolean small() {
			return this.answer.body().length <= MAX_SMALL_BODY_BYTES;
		}

		@Override
		protected Answer body(RequestView request) {
			return this.answer;
		}

	}

	/**
	 * {@code 503 Service Unavailable} with a {@code Retry-After} and a problem detail (RFC 9457,
	 * {@code application/problem+json}) that tells a JSON client what it got: which route, which
	 * tier, why there is no answer and when to come back. The body is the same for every request
	 * of the route (why the route is shed is in the {@code X-Degradation-Reason} header), so it is
	 * written once, when the route table is compiled.
	 */
	static final class Unavailable extends FallbackWriter {

		/** The media type of a problem detail (RFC 9457). */
		static final String PROBLEM_JSON = "application/problem+json";

		private static final JsonFactory JSON = new JsonFactory();

		private final Answer answer;

		Unavailable(Route route, int retryAfterSeconds, String why) {
			super(route.tier());
			this.answer = new Answer(503, new String[] { "Retry-After", Integer.toString(retryAfterSeconds),
					"Content-Type", PROBLEM_JSON }, problem(route, retryAfterSeconds, why));
		}

		private static byte[] problem(Route route, int retryAfterSeconds, String why) {
			StringWriter body = new StringWriter();
			try (JsonGenerator json = JSON.createGenerator(ObjectWriteContext.empty(), body)) {
				json.writeStartObject();
				json.writeStringProperty("type", "about:blank");
				json.writeStringProperty("title", "Service Unavailable");
				json.writeNumberProperty("status", 503);
				json.writeStringProperty("detail",
						route + " is degraded and " + why + "; retry after " + retryAfterSeconds + " s");
				json.writeBooleanProperty("degraded", true);
				json.writeStringProperty("tier", route.tier());
				json.writeStringProperty("route", route.toString());
				json.writeNumberProperty("retryAfterSeconds", retryAfterSeconds);
				json.writeEndObject();
			}
			return body.toString().getBytes(StandardCharsets.UTF_8);
		}

		@Override
		protected Answer body(RequestView request) {
			return this.answer;
		}

	}

	/**
	 * The stored copy of the request's last good answer with its {@code Age}, or, past the bound
	 * or without a copy, the route's other answer.
	 */
	public static final class Stale extends FallbackWriter {

		private final StaleAnswers.RouteCopies copies;

		private final FallbackWriter otherwise;

		Stale(String tier, StaleAnswers.RouteCopies copies, FallbackWriter otherwise) {
			super(tier);
			this.copies = copies;
			this.otherwise = otherwise;
		}

		/**
		 * Return where the route keeps its copies.
		 * @return the route's copies
		 */
		public StaleAnswers.RouteCopies copies() {
			return this.copies;
		}

		@Override
		public boolean small() {
			return false;
		}

		@Override
		protected Answer body(RequestView request) {
			StaleAnswers.Served served = this.copies.find(request);
			if (served == null) {
				return this.otherwise.body(request);
			}
			StaleAnswers.Copy copy = served.copy();
			String age = Long.toString(served.ageSeconds());
			String[] headers = (copy.contentType() != null)
					? new String[] { "Age", age, "Content-Type", copy.contentType() } : new String[] { "Age", age };
			return new Answer(copy.status(), headers, copy.body());
		}

	}

}

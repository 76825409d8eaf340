package dev.degradation.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.FallbackKey;
import dev.degradation.manifest.FallbackKeys;
import dev.degradation.manifest.FallbackKind;
import dev.degradation.manifest.Route;

/**
 * The starter's four kinds whole: each reads its keys as the manifest's {@link FallbackKind}
 * constants do (plain Java, for tools without an application), and adds its writer and what the
 * contract tests expect of its answer, read from the fallback as declared.
 */
final class BuiltInKinds {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String CONTENT_TYPE = "Content-Type";

	private BuiltInKinds() {
	}

	static List<ServedFallbackKind<?>> all() {
		return List.of(new Drop(), new Static(), new Unavailable(), new Stale());
	}

	/**
	 * A built-in kind: its manifest half is the manifest's own.
	 */
	abstract static class BuiltInKind<F extends Fallback> implements ServedFallbackKind<F> {

		private final FallbackKind<F> manifest;

		BuiltInKind(FallbackKind<F> manifest) {
			this.manifest = manifest;
		}

		@Override
		public String name() {
			return this.manifest.name();
		}

		@Override
		public String summary() {
			return this.manifest.summary();
		}

		@Override
		public String answer() {
			return this.manifest.answer();
		}

		@Override
		public List<FallbackKey> keys() {
			return this.manifest.keys();
		}

		@Override
		public @Nullable F read(FallbackKeys keys) {
			return this.manifest.read(keys);
		}

		@Override
		public @Nullable String methodProblem(String method) {
			return this.manifest.methodProblem(method);
		}

		@Override
		public String toString() {
			return name();
		}

	}

	/** {@code drop}: 204 and no body. */
	static final class Drop extends BuiltInKind<Fallback.Drop> {

		Drop() {
			super(FallbackKind.DROP);
		}

		@Override
		public FallbackWriter writer(Route route, Fallback.Drop fallback, StaleAnswers staleAnswers) {
			return new FallbackWriter.Drop(route.tier());
		}

		@Override
		public List<String> differences(Route route, Fallback.Drop fallback, ServedAnswer answer) {
			return answer.body().isEmpty() ? List.of()
					: List.of("it has a body where the manifest's drop fallback has none");
		}

		@Override
		public String expected(Fallback.Drop fallback, String method) {
			return ", no body";
		}

		@Override
		public String promise(Fallback.Drop fallback) {
			return "answers 204, its drop fallback";
		}

	}

	/** {@code static}: the declared body, content type and headers. */
	static final class Static extends BuiltInKind<Fallback.Static> {

		Static() {
			super(FallbackKind.STATIC);
		}

		@Override
		public FallbackWriter writer(Route route, Fallback.Static fallback, StaleAnswers staleAnswers) {
			return new FallbackWriter.Static(route.tier(), fallback);
		}

		@Override
		public List<String> differences(Route route, Fallback.Static fallback, ServedAnswer answer) {
			return staticDifferences(fallback, answer);
		}

		@Override
		public String expected(Fallback.Static fallback, String method) {
			return method.equals("HEAD") ? ""
					: ", Content-Type: " + fallback.contentType() + ", body " + fallback.body();
		}

		@Override
		public String promise(Fallback.Static fallback) {
			return "answers its static fallback";
		}

	}

	/** {@code unavailable}: 503, the declared Retry-After and a problem detail of the route. */
	static final class Unavailable extends BuiltInKind<Fallback.Unavailable> {

		Unavailable() {
			super(FallbackKind.UNAVAILABLE);
		}

		@Override
		public FallbackWriter writer(Route route, Fallback.Unavailable fallback, StaleAnswers staleAnswers) {
			return new FallbackWriter.Unavailable(route, fallback.retryAfterSeconds(), "has no reduced answer");
		}

		@Override
		public List<String> differences(Route route, Fallback.Unavailable fallback, ServedAnswer answer) {
			return unavailableDifferences(route, fallback, answer);
		}

		@Override
		public String expected(Fallback.Unavailable fallback, String method) {
			return ", Retry-After: " + fallback.retryAfterSeconds() + ", Content-Type: "
					+ FallbackWriter.Unavailable.PROBLEM_JSON;
		}

	}

	/** {@code stale}: a copy no older than declared, or without one the route's other answer. */
	static final class Stale extends BuiltInKind<Fallback.Stale> {

		Stale() {
			super(FallbackKind.STALE);
		}

		@Override
		public FallbackWriter writer(Route route, Fallback.Stale fallback, StaleAnswers staleAnswers) {
			Fallback.Static staticResponse = fallback.staticResponse();
			FallbackWriter otherwise = (staticResponse != null) ? new FallbackWriter.Static(route.tier(), staticResponse)
					: new FallbackWriter.Unavailable(route, retryAfter(fallback),
							"has no copy of its last good answer young enough to serve");
			return new FallbackWriter.Stale(route.tier(), staleAnswers.forRoute(route, fallback), otherwise);
		}

		@Override
		public List<String> differences(Route route, Fallback.Stale fallback, ServedAnswer answer) {
			String age = answer.header("Age");
			if (age == null) {
				// No copy to serve: the answer is what the route declares without one.
				Fallback.Static staticResponse = fallback.staticResponse();
				return (staticResponse != null) ? staticDifferences(staticResponse, answer)
						: unavailableDifferences(route, new Fallback.Unavailable(retryAfter(fallback)), answer);
			}
			if (age.isEmpty() || age.length() > 9 || !age.chars().allMatch(Character::isDigit)
					|| Integer.parseInt(age) > fallback.maxStaleSeconds()) {
				return List.of("its copy's Age is '" + age + "', past the manifest's max_stale_seconds "
						+ fallback.maxStaleSeconds());
			}
			return List.of();
		}

		private static int retryAfter(Fallback.Stale fallback) {
			// The constructor of Fallback.Stale allows a static answer or a 503, nothing else.
			return ((Fallback.Unavailable) fallback.otherwise()).retryAfterSeconds();
		}

	}

	private static List<String> staticDifferences(Fallback.Static fallback, ServedAnswer answer) {
		List<String> differences = new ArrayList<>();
		String contentType = answer.header(CONTENT_TYPE);
		boolean json = isJson(fallback.contentType());
		if (json && !isJson(contentType)) {
			differences.add("its content type is " + quoted(contentType) + " instead of JSON");
		}
		else if (!json && (contentType == null || !contentType.startsWith(fallback.contentType()))) {
			differences.add("its content type is " + quoted(contentType) + " instead of " + fallback.contentType());
		}
		boolean same = json ? sameJson(fallback.body(), answer.body()) : fallback.body().equals(answer.body());
		if (!same) {
			differences.add("its body is " + answer.body() + " instead of the manifest's static_response "
					+ fallback.body());
		}
		fallback.headers().forEach((name, value) -> {
			String actual = answer.header(name);
			if (!value.equals(actual)) {
				differences.add("its " + name + " header is " + quoted(actual) + " instead of the manifest's '" + value
						+ "'");
			}
		});
		return differences;
	}

	private static List<String> unavailableDifferences(Route route, Fallback.Unavailable fallback,
			ServedAnswer answer) {
		List<String> differences = new ArrayList<>();
		String retryAfter = answer.header("Retry-After");
		if (!Integer.toString(fallback.retryAfterSeconds()).equals(retryAfter)) {
			differences.add("its Retry-After is " + quoted(retryAfter) + " instead of the manifest's retry_after_seconds "
					+ fallback.retryAfterSeconds());
		}
		String contentType = answer.header(CONTENT_TYPE);
		if (contentType == null || !contentType.startsWith(FallbackWriter.Unavailable.PROBLEM_JSON)) {
			differences.add("its content type is " + quoted(contentType) + " instead of "
					+ FallbackWriter.Unavailable.PROBLEM_JSON);
		}
		JsonNode problem = json(answer.body());
		boolean declared = problem != null && problem.path("status").asInt() == 503
				&& problem.path("degraded").asBoolean(false) && route.tier().equals(problem.path("tier").asString(""))
				&& route.toString().equals(problem.path("route").asString(""))
				&& problem.path("retryAfterSeconds").asInt() == fallback.retryAfterSeconds();
		if (!declared) {
			differences.add("its body is " + answer.body() + " instead of a problem detail with status 503, "
					+ "degraded true, tier '" + route.tier() + "', route '" + route + "' and retryAfterSeconds "
					+ fallback.retryAfterSeconds());
		}
		return differences;
	}

	private static String quoted(@Nullable String value) {
		return (value != null) ? "'" + value + "'" : "missing";
	}

	private static boolean isJson(@Nullable String contentType) {
		try {
			return contentType != null
					&& MediaType.parseMediaType(contentType).isCompatibleWith(MediaType.APPLICATION_JSON);
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	private static boolean sameJson(String declared, String served) {
		JsonNode expected = json(declared);
		return expected != null && Objects.equals(expected, json(served));
	}

	private static @Nullable JsonNode json(String text) {
		try {
			return JSON.readTree(text);
		}
		catch (JacksonException ex) {
			return null;
		}
	}

}

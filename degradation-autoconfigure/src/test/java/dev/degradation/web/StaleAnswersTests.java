package dev.degradation.web;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;

import dev.degradation.fixture.TestClock;
import dev.degradation.manifest.Fallback;
import dev.degradation.manifest.Position;
import dev.degradation.manifest.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store of last good answers on its own, with time moved by the test: which requests a copy
 * may be kept for (never one user's answer for another), how old a copy may be, and the bounds
 * that keep the store from growing without limit.
 */
class StaleAnswersTests {

	private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

	private final TestClock clock = TestClock.at(START);

	@Test
	void aRequestWithCredentialsOrCookiesIsNeverKeptUnlessTheRouteVariesByThem() {
		StaleAnswers.RouteCopies copies = copies(new StaleAnswers(StaleAnswers.Limits.DEFAULT, this.clock), 60);
		assertThat(copies.key(get("/api/items"))).isEqualTo("/api/items");
		TestRequest withCredentials = get("/api/items");
		withCredentials.addHeader("Authorization", "Bearer alice");
		assertThat(copies.key(withCredentials)).isNull();
		TestRequest withCookie = get("/api/items");
		withCookie.addHeader("Cookie", "session=alice");
		assertThat(copies.key(withCookie)).isNull();
	}

	@Test
	void aRouteThatVariesByCredentialsKeepsOneCopyAUserAndNeverServesItToAnother() {
		StaleAnswers store = new StaleAnswers(StaleAnswers.Limits.DEFAULT, this.clock);
		StaleAnswers.RouteCopies copies = copies(store, 60, "authorization");
		TestRequest alice = get("/api/account");
		alice.addHeader("Authorization", "Bearer alice");
		TestRequest bob = get("/api/account");
		bob.addHeader("Authorization", "Bearer bob");
		copies.store(copies.key(alice), 200, "application/json", body("{\"user\":\"alice\"}"));
		assertThat(copies.find(alice)).isNotNull()
			.satisfies((served) -> assertThat(new String(served.copy().body(), StandardCharsets.UTF_8))
				.isEqualTo("{\"user\":\"alice\"}"));
		assertThat(copies.find(bob)).isNull();
		assertThat(copies.find(get("/api/account"))).as("no credentials at all").isNull();
	}

	@Test
	void anAuthenticatedRequestKeepsAndIsServedItsPrincipalsOwnCopyOnly() {
		StaleAnswers store = new StaleAnswers(StaleAnswers.Limits.DEFAULT, this.clock);
		StaleAnswers.RouteCopies copies = copies(store, 60);
		TestRequest alice = get("/api/account");
		alice.principal = () -> "alice";
		TestRequest bob = get("/api/account");
		bob.principal = () -> "bob";
		copies.store(copies.key(alice), 200, "application/json", body("{\"user\":\"alice\"}"));
		assertThat(copies.find(alice)).isNotNull()
			.satisfies((served) -> assertThat(new String(served.copy().body(), StandardCharsets.UTF_8))
				.isEqualTo("{\"user\":\"alice\"}"));
		assertThat(copies.find(bob)).isNull();
		assertThat(copies.find(get("/api/account"))).as("an anonymous request").isNull();
		// A name is the key's last part, after one more line break than an anonymous key has.
		TestRequest emptyName = get("/api/account");
		emptyName.principal = () -> "";
		assertThat(copies.key(emptyName)).isNotEqualTo(copies.key(get("/api/account")));
		TestRequest nameless = get("/api/account");
		nameless.principal = () -> null;
		assertThat(copies.key(nameless)).as("a principal without a name").isNull();
	}

	@Test
	void aPrincipalsCopiesStillVaryByTheRoutesHeaders() {
		StaleAnswers store = new StaleAnswers(StaleAnswers.Limits.DEFAULT, this.clock);
		StaleAnswers.RouteCopies copies = copies(store, 60, "accept-language");
		TestRequest english = get("/api/account", "page=1");
		english.addHeader("Accept-Language", "en");
		english.principal = () -> "alice";
		TestRequest french = get("/api/account", "page=1");
		french.addHeader("Accept-Language", "fr");
		french.principal = () -> "alice";
		TestRequest anonymous = get("/api/account", "page=1");
		anonymous.addHeader("Accept-Language", "en");
		assertThat(copies.key(english)).isEqualTo("/api/account?page=1\nen\nalice");
		assertThat(copies.key(french)).isEqualTo("/api/account?page=1\nfr\nalice");
		assertThat(copies.key(anonymous)).isEqualTo("/api/account?page=1\nen");
	}

	@Test
	void anAnswerThatVariesByAHeaderTheRouteIsNotKeyedByIsNotKept() {
		StaleAnswers store = new StaleAnswers(StaleAnswers.Limits.DEFAULT, this.clock);
		StaleAnswers.RouteCopies copies = copies(store, 60, "accept-language");
		copies.offer("/api/own", 200, varying("X-Api-Key"), body("{\"for\":\"alice\"}"));
		copies.offer("/api/any", 200, varying("*"), body("[1]"));
		copies.offer("/api/accept", 200, varying("Accept-Language, Accept"), body("[2]"));
		assertThat(store.entries()).isZero();
		// Headers a copy does not depend on, and those the route is keyed by, keep it.
		copies.offer("/api/cors", 200, varying("Origin, Access-Control-Request-Method, Access-Control-Request-Headers"),
				body("[3]"));
		copies.offer("/api/gzip", 200, varying("accept-encoding"), body("[4]"));
		copies.offer("/api/language", 200, varying("Accept-Language"), body("[5]"));
		assertThat(store.entries()).isEqualTo(3);
	}

	@Test
	void aCopyIsServedWithItsAgeUntilItIsOlderThanTheRouteAllowsThenDropped() {
		StaleAnswers store = new StaleAnswers(StaleAnswers.Limits.DEFAULT, this.clock);
		StaleAnswers.RouteCopies copies = copies(store, 60);
		copies.store("/api/items", 200, "application/json", body("[1]"));
		this.clock.advance(Duration.ofSeconds(42));
		assertThat(copies.find(get("/api/items"))).isNotNull()
			.satisfies((served) -> assertThat(served.ageSeconds()).isEqualTo(42));
		this.clock.advance(Duration.ofSeconds(19));
		assertThat(copies.find(get("/api/items"))).isNull();
		assertThat(store.entries()).isZero();
		assertThat(store.bytes()).isZero();
		assertThat(store.evicted()).isEqualTo(1);
		assertThat(store.served()).isEqualTo(1);
	}

	@Test
	void aRouteKeepsAtMostItsEntriesDroppingTheLeastRecentlyUsed() {
		StaleAnswers store = new StaleAnswers(new StaleAnswers.Limits(2, 1 << 20, 1 << 20, 1 << 10), this.clock);
		StaleAnswers.RouteCopies copies = copies(store, 60);
		copies.store("/api/items?page=1", 200, null, body("1"));
		copies.store("/api/items?page=2", 200, null, body("2"));
		// Page 1 is used, so page 2 is the least recently used when page 3 comes in.
		assertThat(copies.find(get("/api/items", "page=1"))).isNotNull();
		copies.store("/api/items?page=3", 200, null, body("3"));
		assertThat(copies.size()).isEqualTo(2);
		assertThat(copies.find(get("/api/items", "page=2"))).isNull();
		assertThat(copies.find(get("/api/items", "page=1"))).isNotNull();
		assertThat(store.evicted()).isEqualTo(1);
	}

	@Test
	void everyRouteTogetherStaysWithinTheTotalAndAnAnswerLargerThanARouteMayHoldIsRefused() {
		StaleAnswers store = new StaleAnswers(new StaleAnswers.Limits(100, 1000, 1500, 1 << 10), this.clock);
		StaleAnswers.RouteCopies first = copies(store, 60);
		StaleAnswers.RouteCopies second = copies(store, 60);
		first.store("/a", 200, null, new byte[600]);
		second.store("/b", 200, null, new byte[600]);
		assertThat(store.bytes()).isLessThanOrEqualTo(1500);
		second.store("/c", 200, null, new byte[2000]);
		assertThat(store.refused()).isPositive();
		assertThat(store.bytes()).isLessThanOrEqualTo(1500);
		assertThat(first.routeBytes() + second.routeBytes()).isEqualTo(store.bytes());
	}

	private StaleAnswers.RouteCopies copies(StaleAnswers store, int maxStaleSeconds, String... varyBy) {
		Fallback.Stale stale = new Fallback.Stale(maxStaleSeconds, List.of(varyBy), new Fallback.Unavailable(30));
		return store.forRoute(new Route("enhanced", "GET", "/api/**", stale, List.of(), new Position(1, 1)), stale);
	}

	/** An answer's headers: only a {@code Vary}. */
	private static Function<String, List<String>> varying(String vary) {
		return (name) -> name.equalsIgnoreCase("Vary") ? List.of(vary) : List.of();
	}

	private static TestRequest get(String path) {
		return get(path, null);
	}

	private static TestRequest get(String path, String query) {
		return new TestRequest(path, query);
	}

	/**
	 * A request as the store reads it, whatever stack received it.
	 */
	private static final class TestRequest implements RequestView {

		private final String path;

		private final String query;

		private final HttpHeaders headers = new HttpHeaders();

		private @Nullable Principal principal;

		TestRequest(String path, String query) {
			this.path = path;
			this.query = query;
		}

		void addHeader(String name, String value) {
			this.headers.add(name, value);
		}

		@Override
		public String method() {
			return "GET";
		}

		@Override
		public PathContainer pathWithinApplication() {
			return PathContainer.parsePath(this.path);
		}

		@Override
		public String rawPath() {
			return this.path;
		}

		@Override
		public String rawQuery() {
			return this.query;
		}

		@Override
		public String header(String name) {
			return this.headers.getFirst(name);
		}

		@Override
		public @Nullable Principal principal() {
			return this.principal;
		}

	}

	private static byte[] body(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}

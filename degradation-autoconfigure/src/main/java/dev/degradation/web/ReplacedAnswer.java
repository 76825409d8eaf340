package dev.degradation.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What of a failed handler's answer stays when its route's fallback replaces it (after a guarded
 * call that got no answer): the one rule both web stacks follow, so that a fallback carries the
 * same headers and cookies on either.
 *
 * <p>A handler that failed may already have set headers that describe the answer it meant to give
 * (its content type and length, validators, a redirect, cache directives, a {@code Retry-After})
 * and cookies that record work that did not happen (a cart, a preference): none of them is true of
 * the fallback. What the filters before it set stays: CORS, tracing, security headers, and the
 * session cookie the server made for the request, whose loss would sign the user out for an answer
 * that had nothing to do with the session.
 */
public final class ReplacedAnswer {

	/**
	 * Headers that describe an answer, not the exchange. Lower case; names starting with
	 * {@code content-} and {@code x-degrad} describe it too.
	 */
	private static final Set<String> ANSWER_HEADERS = Set.of("etag", "last-modified", "location", "retry-after",
			"vary", "cache-control", "expires", "pragma", "age", "link", "refresh", "transfer-encoding", "trailer");

	private ReplacedAnswer() {
	}

	/**
	 * Return whether a header set before the fallback replaced the answer stays on the fallback.
	 * {@code Set-Cookie} stays as a header name: each cookie is judged by {@link #keepsCookie}.
	 * @param name the header's name, in any case
	 * @return whether it stays
	 */
	public static boolean keepsHeader(String name) {
		String lower = name.toLowerCase(Locale.ROOT);
		return !(ANSWER_HEADERS.contains(lower) || lower.startsWith("content-") || lower.startsWith("x-degrad"));
	}

	/**
	 * Return whether a cookie set before the fallback replaced the answer stays on the fallback:
	 * only the session's.
	 * @param cookieName the cookie's name
	 * @param sessionCookieName the name of the server's session cookie
	 * @return whether it stays
	 */
	public static boolean keepsCookie(String cookieName, String sessionCookieName) {
		return cookieName.equals(sessionCookieName);
	}

	/**
	 * Return whether a {@code Set-Cookie} header value set before the fallback replaced the answer
	 * stays on the fallback (its cookie is the session's).
	 * @param setCookie the header's value, such as {@code JSESSIONID=abc; Path=/; HttpOnly}
	 * @param sessionCookieName the name of the server's session cookie
	 * @return whether it stays
	 */
	public static boolean keepsSetCookie(String setCookie, String sessionCookieName) {
		int equals = setCookie.indexOf('=');
		return equals > 0 && keepsCookie(setCookie.substring(0, equals).trim(), sessionCookieName);
	}

	/**
	 * Return the headers of a failed handler's answer that stay on the fallback that replaces it,
	 * each value apart, in the order they were set: what a stack puts back after it cleared the
	 * answer.
	 * @param names the names of the headers set
	 * @param values the values of a header, by name
	 * @param sessionCookieName the name of the server's session cookie
	 * @return the headers that stay, as name and value
	 */
	public static List<Map.Entry<String, String>> keptHeaders(Iterable<String> names,
			Function<String, ? extends Iterable<String>> values, String sessionCookieName) {
		List<Map.Entry<String, String>> kept = new ArrayList<>();
		for (String name : names) {
			if (keepsHeader(name)) {
				boolean cookie = name.equalsIgnoreCase("Set-Cookie");
				for (String value : values.apply(name)) {
					if (!cookie || keepsSetCookie(value, sessionCookieName)) {
						kept.add(Map.entry(name, value));
					}
				}
			}
		}
		return kept;
	}

}

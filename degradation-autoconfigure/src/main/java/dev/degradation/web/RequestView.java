package dev.degradation.web;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;

/**
 * What the stack-neutral decision and the fallback answers read of a request, whichever web stack
 * received it: each adapter implements it over its own request type, without copying.
 */
public interface RequestView {

	/**
	 * Return the request's method.
	 * @return the method, in upper case as sent
	 */
	String method();

	/**
	 * Return the request's path within the application as its web stack resolves it for its
	 * handlers (context path removed, path parameters stripped), so that the decision and the
	 * handlers cannot disagree about which route a request is. Called only when the decision
	 * needs it; an adapter may resolve it then.
	 * @return the path
	 */
	PathContainer pathWithinApplication();

	/**
	 * Return the request's path as sent, not decoded, without its query.
	 * @return the raw path
	 */
	String rawPath();

	/**
	 * Return the request's query as sent, not decoded.
	 * @return the raw query, or {@code null} without one
	 */
	@Nullable String rawQuery();

	/**
	 * Return the first value of a request header.
	 * @param name the header's name, in any case
	 * @return its first value, or {@code null} when the request has none
	 */
	@Nullable String header(String name);

	/**
	 * Return the address of the request's caller as the web stack reports it (after whatever it
	 * trusts of forwarded headers).
	 * @return the address, or {@code null} when the stack does not know it
	 */
	default @Nullable String callerAddress() {
		return null;
	}

	/**
	 * Return the port of this server the request arrived on, so that a path can be told apart by
	 * the server that serves it (the Actuator's on a port of its own).
	 * @return the port, or {@code -1} when the stack does not know it
	 */
	default int localPort() {
		return -1;
	}

	/**
	 * Return the principal the request is authenticated as, when it is not anonymous: the answer
	 * of such a request is its user's own, and a {@code stale} route keeps and serves its copies
	 * per principal ({@link StaleAnswers}). Read only for the requests of a route that keeps
	 * copies, after the stack made it known ({@link RequestLifecycle#principalKnown}).
	 * @return the principal, or {@code null} for a request that is not authenticated
	 */
	default @Nullable Principal principal() {
		return null;
	}

}

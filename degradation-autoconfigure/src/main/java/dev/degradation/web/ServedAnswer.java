package dev.degradation.web;

import org.jspecify.annotations.Nullable;

/**
 * An answer as a client received it, for a {@link ServedFallbackKind} to judge against what its
 * fallback declares: the contract tests hand each kind the answers of its routes through this
 * view, whichever client sent the request.
 */
public interface ServedAnswer {

	/**
	 * Return the status.
	 * @return the status
	 */
	int status();

	/**
	 * Return the first value of a header.
	 * @param name the header name, in any case
	 * @return the value, or {@code null} when the answer has no such header
	 */
	@Nullable String header(String name);

	/**
	 * Return the body, decoded as UTF-8.
	 * @return the body, empty for none
	 */
	String body();

}

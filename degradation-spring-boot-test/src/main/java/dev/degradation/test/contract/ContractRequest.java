package dev.degradation.test.contract;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One request of the contract tests.
 *
 * @param method the HTTP method, upper case
 * @param target the path within the application, with its query if any
 * @param headers the headers to send, including the contract's mark
 * @param body the body, or {@code null} for none
 */
record ContractRequest(String method, String target, Map<String, String> headers, @Nullable String body) {

	ContractRequest {
		headers = Map.copyOf(headers);
	}

	/**
	 * Return the target without its query, as a route pattern matches it.
	 * @return the path
	 */
	String path() {
		int query = this.target.indexOf('?');
		return (query >= 0) ? this.target.substring(0, query) : this.target;
	}

	@Override
	public String toString() {
		return this.method + " " + this.target;
	}

}

package dev.degradation.test.contract;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import dev.degradation.web.DegradationHeaders;
import dev.degradation.web.ServedAnswer;

/**
 * What the application answered a request of the contract tests.
 *
 * @param status the status code
 * @param headers the headers, by name in any case
 * @param body the body as text
 */
record ContractAnswer(int status, Map<String, List<String>> headers, String body) implements ServedAnswer {

	private static final int MAX_BODY = 500;

	ContractAnswer {
		Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		headers.forEach((name, values) -> copy.put(name, List.copyOf(values)));
		headers = copy;
	}

	/**
	 * Return the first value of a header.
	 * @param name the header name, in any case
	 * @return the value, or {@code null} when the answer has no such header
	 */
	@Override
	public @Nullable String header(String name) {
		List<String> values = this.headers.get(name);
		return (values != null && !values.isEmpty()) ? values.get(0) : null;
	}

	/**
	 * Return whether a fallback of the degradation filter answered.
	 * @return whether the answer says it is degraded
	 */
	boolean degraded() {
		return "true".equals(header(DegradationHeaders.DEGRADED));
	}

	/**
	 * Return the handler that the request reached, as the contract's interceptor named it.
	 * @return the handler, or {@code null} when the request reached none
	 */
	@Nullable String handler() {
		return ContractHandlers.handlerOf(header(ContractHandlers.HANDLER_HEADER));
	}

	/**
	 * Return the answer as a failure message shows it: the status, the headers that tell a
	 * degraded answer, the content type and the beginning of the body.
	 * @return the description
	 */
	String describe() {
		StringBuilder description = new StringBuilder().append(this.status);
		for (String name : List.of(DegradationHeaders.DEGRADED, DegradationHeaders.TIER, DegradationHeaders.LEVEL,
				DegradationHeaders.REASON, "Cache-Control", "Content-Type",
				ContractHandlers.HANDLER_HEADER)) {
			String value = (name.equals(ContractHandlers.HANDLER_HEADER)) ? handler() : header(name);
			if (value != null) {
				description.append(", ").append(name).append(": ").append(value);
			}
		}
		String shown = (this.body.length() > MAX_BODY) ? this.body.substring(0, MAX_BODY) + "..." : this.body;
		return description.append(this.body.isEmpty() ? ", no body" : ", body " + shown).toString();
	}

}

package dev.degradation.web;

import java.util.Arrays;

/**
 * A whole answer prepared by the starter, a fallback or a refusal, as status, headers and bytes:
 * each web stack writes it with its own types, so that both send the same answer.
 *
 * @param status the status
 * @param headers the headers as name and value pairs, in order; a later pair of the same name
 * replaces an earlier one
 * @param body the body, empty for none; the array is shared and must not be changed
 */
public record Answer(int status, String[] headers, byte[] body) {

	/** No body. */
	static final byte[] EMPTY = new byte[0];

	/**
	 * Return the answer with headers put before its own, so that its own win where both name
	 * the same header.
	 * @param first the headers to put first, as name and value pairs
	 * @return the answer with those headers
	 */
	Answer withHeadersFirst(String... first) {
		String[] merged = Arrays.copyOf(first, first.length + this.headers.length);
		System.arraycopy(this.headers, 0, merged, first.length, this.headers.length);
		return new Answer(this.status, merged, this.body);
	}

	/**
	 * Return whether the answer has a body length to send: every status but {@code 204} and
	 * {@code 304}, which must have none.
	 * @return whether a {@code Content-Length} belongs to it
	 */
	public boolean hasContentLength() {
		return this.status != 204 && this.status != 304;
	}

	@Override
	public String toString() {
		return this.status + " " + Arrays.toString(this.headers) + " (" + this.body.length + " bytes)";
	}

}

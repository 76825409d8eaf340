package dev.degradation.web.servlet;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which admitted requests get their body bounded: every one that may have a body, whichever way
 * its protocol frames it, and none that cannot.
 */
class TimeLimitedBodyRequestTests {

	@Test
	void aRequestOverHttp11DeclaringNeitherALengthNorATransferCodingHasNoBody() {
		assertThat(TimeLimitedBodyRequest.mayHaveBody(request("HTTP/1.1"))).isFalse();
		assertThat(TimeLimitedBodyRequest.mayHaveBody(request("HTTP/1.0"))).isFalse();
	}

	@Test
	void aRequestOverHttp11DeclaringALengthOrChunkedMayHaveOne() {
		MockHttpServletRequest declared = request("HTTP/1.1");
		declared.setContent(new byte[] { 'x' });
		assertThat(TimeLimitedBodyRequest.mayHaveBody(declared)).isTrue();
		MockHttpServletRequest chunked = request("HTTP/1.1");
		chunked.addHeader("Transfer-Encoding", "chunked");
		assertThat(TimeLimitedBodyRequest.mayHaveBody(chunked)).isTrue();
	}

	@Test
	void aRequestOverHttp2Or3DeclaringNoLengthMayHaveOne() {
		// Its body is DATA frames, which no header announces.
		assertThat(TimeLimitedBodyRequest.mayHaveBody(request("HTTP/2.0"))).isTrue();
		assertThat(TimeLimitedBodyRequest.mayHaveBody(request("HTTP/3"))).isTrue();
	}

	@Test
	void aRequestOverHttp2DeclaringALengthOfZeroHasNoBody() {
		MockHttpServletRequest empty = request("HTTP/2.0");
		empty.setContent(new byte[0]);
		assertThat(TimeLimitedBodyRequest.mayHaveBody(empty)).isFalse();
	}

	private static MockHttpServletRequest request(String protocol) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/items/1");
		request.setProtocol(protocol);
		return request;
	}

}

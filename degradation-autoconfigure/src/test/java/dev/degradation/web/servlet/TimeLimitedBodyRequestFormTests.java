package dev.degradation.web.servlet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.netflix.concurrency.limits.limit.FixedLimit;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.ErrorResponseException;

import dev.degradation.overload.Admission;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.Deadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The form an admitted request posts is read by the starter only within the server's own limits:
 * a larger one is the server's, which refuses it, and one of more parameters is refused here; a
 * chunked one, whose size is known only once read, is refused here when it is larger.
 */
class TimeLimitedBodyRequestFormTests {

	private static final String FORM = "name=ada&tier=core";

	private final BodyTimer timer = new BodyTimer();

	@AfterEach
	void stopTimer() {
		this.timer.close();
	}

	@Test
	void aFormWithinTheServersLimitsIsReadHere() {
		TimeLimitedBodyRequest request = new TimeLimitedBodyRequest(posted(FORM), admitted(), seconds(5),
				new FormLimits(1024, 10), this.timer);
		assertThat(request.getParameter("name")).isEqualTo("ada");
		assertThat(request.getParameterValues("tier")).containsExactly("core");
	}

	@Test
	void aFormLargerThanTheServerTakesIsLeftToTheServer() {
		TimeLimitedBodyRequest request = new TimeLimitedBodyRequest(posted(FORM), admitted(), seconds(5),
				new FormLimits(FORM.length() - 1, 10), this.timer);
		// The mock server parses no body: a form it answers none of was left to it, not read here.
		assertThat(request.getParameter("name")).isNull();
	}

	@Test
	void aFormOfMoreParametersThanTheServerTakesIsRefused() {
		TimeLimitedBodyRequest request = new TimeLimitedBodyRequest(posted(FORM), admitted(), seconds(5),
				new FormLimits(1024, 1), this.timer);
		assertThatExceptionOfType(ErrorResponseException.class).isThrownBy(() -> request.getParameter("name"))
			.satisfies((ex) -> assertThat(ex.getStatusCode().value()).isEqualTo(400));
	}

	@Test
	void aChunkedFormWithinTheServersLimitIsReadHere() {
		TimeLimitedBodyRequest request = new TimeLimitedBodyRequest(chunked(posted(FORM)), admitted(), seconds(5),
				new FormLimits(FORM.length(), 10), this.timer);
		assertThat(request.getParameter("name")).isEqualTo("ada");
		assertThat(request.getParameterValues("tier")).containsExactly("core");
	}

	@Test
	void aChunkedFormLargerThanTheServerTakesIsRefused() {
		// Its size is known only as it is read: read here, it can no longer be left to the server.
		TimeLimitedBodyRequest request = new TimeLimitedBodyRequest(chunked(posted(FORM)), admitted(), seconds(5),
				new FormLimits(FORM.length() - 1, 10), this.timer);
		assertThatExceptionOfType(ErrorResponseException.class).isThrownBy(() -> request.getParameter("name"))
			.satisfies((ex) -> assertThat(ex.getStatusCode().value()).isEqualTo(413));
	}

	/** The same form sent in chunks: no declared length. */
	private static HttpServletRequest chunked(MockHttpServletRequest request) {
		request.addHeader("Transfer-Encoding", "chunked");
		return new HttpServletRequestWrapper(request) {

			@Override
			public int getContentLength() {
				return -1;
			}

			@Override
			public long getContentLengthLong() {
				return -1;
			}

		};
	}

	private static MockHttpServletRequest posted(String form) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/form");
		request.setContentType("application/x-www-form-urlencoded");
		request.setContent(form.getBytes(StandardCharsets.ISO_8859_1));
		return request;
	}

	private static Admitted admitted() {
		Admission admission = new Admission(FixedLimit.of(10), 1, Duration.ZERO, System::nanoTime);
		return (Admitted) admission.decide(admission.coreRank(), Deadline.NONE);
	}

	private static long seconds(int seconds) {
		return TimeUnit.SECONDS.toNanos(seconds);
	}

}

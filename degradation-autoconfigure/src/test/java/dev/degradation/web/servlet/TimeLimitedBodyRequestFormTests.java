package dev.degradation.web.servlet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.netflix.concurrency.limits.limit.FixedLimit;
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
 * a larger one is the server's, which refuses it, and one of more parameters is refused here.
 */
class TimeLimitedBodyRequestFormTests {

	private static final String FORM = "name=ada&tier=core";

	@Test
	void aFormWithinTheServersLimitsIsReadHere() {
		TimeLimitedBodyRequest request = new TimeLimitedBodyRequest(posted(FORM), admitted(), seconds(5),
				new FormLimits(1024, 10));
		assertThat(request.getParameter("name")).isEqualTo("ada");
		assertThat(request.getParameterValues("tier")).containsExactly("core");
	}

	@Test
	void aFormLargerThanTheServerTakesIsLeftToTheServer() {
		TimeLimitedBodyRequest request = new TimeLimitedBodyRequest(posted(FORM), admitted(), seconds(5),
				new FormLimits(FORM.length() - 1, 10));
		// The mock server parses no body: a form it answers none of was left to it, not read here.
		assertThat(request.getParameter("name")).isNull();
	}

	@Test
	void aFormOfMoreParametersThanTheServerTakesIsRefused() {
		TimeLimitedBodyRequest request = new TimeLimitedBodyRequest(posted(FORM), admitted(), seconds(5),
				new FormLimits(1024, 1));
		assertThatExceptionOfType(ErrorResponseException.class).isThrownBy(() -> request.getParameter("name"))
			.satisfies((ex) -> assertThat(ex.getStatusCode().value()).isEqualTo(400));
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

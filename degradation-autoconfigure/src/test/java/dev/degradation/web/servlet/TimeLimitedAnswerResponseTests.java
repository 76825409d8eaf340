package dev.degradation.web.servlet;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.netflix.concurrency.limits.limit.FixedLimit;
import jakarta.servlet.ServletOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletResponse;

import dev.degradation.overload.Admission;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.Deadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What watching an admitted answer's writes costs the filter's one timer thread, and that it gives
 * the place back once the caller has kept a write waiting past the bound.
 */
class TimeLimitedAnswerResponseTests {

	private final Admission admission = new Admission(FixedLimit.of(1), 1, Duration.ZERO, System::nanoTime);

	private final BodyTimer timer = new BodyTimer();

	@AfterEach
	void close() {
		this.timer.close();
	}

	@Test
	void aLongAnswerToACallerOfAShortDeadlineKeepsTheTimerFromLookingAtEveryTurnOfIt() throws Exception {
		Admitted admitted = admitted();
		// A short bound, as a caller's deadline header may set it.
		TimeLimitedAnswerResponse answer = new TimeLimitedAnswerResponse(new MockHttpServletResponse(), admitted,
				TimeUnit.MILLISECONDS.toNanos(20), this.timer);
		ServletOutputStream output = answer.getOutputStream();
		output.write(new byte[TimeLimitedAnswerResponse.WATCHED_AFTER_BYTES + 1]);
		long start = System.nanoTime();
		// The caller reads as fast as the answer is written: the writes never wait, and the
		// answer goes on for a while, holding its place all along.
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
			.until(() -> this.admission.inflight() == 1);
		long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		answer.finished();
		assertThat(this.timer.scheduled()).as("looks in %d ms", elapsedMillis)
			.isLessThanOrEqualTo(1 + elapsedMillis / TimeUnit.NANOSECONDS.toMillis(
					TimeLimitedAnswerResponse.LOOK_AGAIN_AFTER_NANOS) + 1);
		admitted.onSuccess();
	}

	@Test
	void aWriteThatWaitsPastTheBoundGivesThePlaceBackOnce() throws Exception {
		Admitted admitted = admitted();
		TimeLimitedAnswerResponse answer = new TimeLimitedAnswerResponse(new BlockingResponse(), admitted,
				TimeUnit.MILLISECONDS.toNanos(200), this.timer);
		Thread writer = new Thread(() -> {
			try {
				answer.getOutputStream().write(new byte[TimeLimitedAnswerResponse.WATCHED_AFTER_BYTES + 1]);
			}
			catch (Exception ex) {
				// Interrupted at the end of the test.
			}
		});
		writer.start();
		try {
			await().atMost(Duration.ofSeconds(5)).until(() -> this.admission.inflight() == 0);
			admitted.onSuccess();
			assertThat(this.admission.inflight()).as("given back once").isZero();
			assertThat(this.admission.ignored()).isEqualTo(1);
			assertThat(this.admission.succeeded()).isZero();
		}
		finally {
			writer.interrupt();
			writer.join(5_000);
		}
	}

	private Admitted admitted() {
		return (Admitted) this.admission.decide(this.admission.coreRank(), Deadline.NONE);
	}

	/** A response whose writes wait until interrupted, as for a caller that reads nothing. */
	private static final class BlockingResponse extends MockHttpServletResponse {

		@Override
		public ServletOutputStream getOutputStream() {
			return new ServletOutputStream() {

				@Override
				public void write(int b) {
					write(new byte[] { (byte) b }, 0, 1);
				}

				@Override
				public void write(byte[] buffer, int offset, int length) {
					try {
						new java.util.concurrent.CountDownLatch(1).await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setWriteListener(jakarta.servlet.WriteListener listener) {
				}

			};
		}

	}

}

package dev.degradation.web.servlet;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.netflix.concurrency.limits.limit.FixedLimit;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.Part;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockPart;

import dev.degradation.overload.Admission;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.Deadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * While the server parses an admitted request's multipart body itself, the request's place is
 * given back at the body's bound, once: the request's own end after it changes nothing, the place
 * count never goes below the requests that hold one, and a body that arrived in time is served
 * with its place.
 */
class TimeLimitedBodyRequestPartsTests {

	private final BodyTimer timer = new BodyTimer();

	/** How far the test moved admission's clock ahead of the time the timer keeps. */
	private final AtomicLong ahead = new AtomicLong();

	private final Admission admission = new Admission(FixedLimit.of(1), 1, Duration.ZERO,
			() -> System.nanoTime() + this.ahead.get());

	private final ExecutorService requestThread = Executors.newSingleThreadExecutor();

	@AfterEach
	void stop() {
		this.timer.close();
		this.requestThread.shutdownNow();
	}

	@Test
	void aPlaceIsGivenBackOnceAtTheBoundWhileTheServerStillParses() throws Exception {
		Admitted slow = admit();
		CountDownLatch bodyEnds = new CountDownLatch(1);
		ServerParse server = new ServerParse(multipart(), bodyEnds);
		TimeLimitedBodyRequest request = bounded(server, slow);
		Future<Collection<Part>> parts = this.requestThread.submit(request::getParts);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.admission.inflight() == 0);
		assertThat(parts).as("the server still parses").isNotDone();
		assertThat(this.admission.ignored()).as("given back as a slow body is: no sample").isOne();
		// The place is another request's now.
		Admitted next = admit();
		bodyEnds.countDown();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(parts::get)
			.havingCause()
			.isInstanceOfSatisfying(TimeLimitedBodyRequest.BodyTooSlowResponse.class,
					(ex) -> assertThat(ex.getStatusCode().value()).isEqualTo(408));
		// The slow request's own end, however it is reported after its 408, releases nothing more.
		slow.ended(false, Deadline.NONE, Long.MAX_VALUE, null);
		slow.onSuccess();
		slow.onDropped();
		assertThat(this.admission.inflight()).as("the next request's place").isOne();
		assertThat(this.admission.ignored()).isOne();
		assertThat(this.admission.succeeded()).isZero();
		assertThat(this.admission.dropped()).isZero();
		next.onSuccess();
		assertThat(this.admission.inflight()).isZero();
	}

	@Test
	void theParametersOfAMultipartFormAreBoundAsItsParts() throws Exception {
		Admitted slow = admit();
		CountDownLatch bodyEnds = new CountDownLatch(1);
		TimeLimitedBodyRequest request = bounded(new ServerParse(multipart(), bodyEnds), slow);
		Future<String> note = this.requestThread.submit(() -> request.getParameter("note"));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.admission.inflight() == 0);
		bodyEnds.countDown();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(note::get)
			.withCauseInstanceOf(TimeLimitedBodyRequest.BodyTooSlowResponse.class);
		slow.onIgnore();
		assertThat(this.admission.inflight()).isZero();
		assertThat(this.admission.ignored()).isOne();
	}

	@Test
	void aBodyThatArrivesInTimeKeepsItsPlaceAndIsServedEvenWhenAskedForLater() throws Exception {
		Admitted admitted = admit();
		ServerParse server = new ServerParse(multipart(), new CountDownLatch(0));
		TimeLimitedBodyRequest request = bounded(server, admitted);
		assertThat(request.getParts()).extracting(Part::getName).containsExactly("file");
		// The release was cancelled: past the bound by the timer's own time, the place is still held.
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
			.until(() -> this.admission.inflight() == 1);
		// Long after the bound, the application asks again: the body had arrived in time.
		this.ahead.addAndGet(TimeUnit.SECONDS.toNanos(5));
		assertThat(request.getPart("file")).isNotNull();
		assertThat(request.getParameter("note")).isEqualTo("kept");
		assertThat(this.admission.inflight()).isOne();
		admitted.onSuccess();
		assertThat(this.admission.succeeded()).isOne();
		assertThat(this.admission.inflight()).isZero();
	}

	@Test
	void partsFirstAskedForPastTheBoundAreRefusedWithoutWaitingForTheServer() throws Exception {
		Admitted admitted = admit();
		ServerParse server = new ServerParse(multipart(), new CountDownLatch(1));
		TimeLimitedBodyRequest request = bounded(server, admitted);
		this.ahead.addAndGet(TimeUnit.MILLISECONDS.toNanos(101));
		assertThatExceptionOfType(TimeLimitedBodyRequest.BodyTooSlowResponse.class).isThrownBy(request::getParts);
		assertThat(server.parses).hasValue(0);
		admitted.ended(false, Deadline.NONE, Long.MAX_VALUE, null);
		assertThat(this.admission.inflight()).isZero();
		assertThat(this.admission.ignored()).isOne();
	}

	/** The request as admitted, whose body must arrive within 100 ms of its admission. */
	private TimeLimitedBodyRequest bounded(HttpServletRequest server, Admitted admitted) {
		return new TimeLimitedBodyRequest(server, admitted, TimeUnit.MILLISECONDS.toNanos(100),
				FormLimits.TOMCAT_DEFAULTS, this.timer);
	}

	private Admitted admit() {
		return (Admitted) this.admission.decide(this.admission.coreRank(), Deadline.NONE);
	}

	private static MockHttpServletRequest multipart() {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/upload");
		request.setContentType("multipart/form-data; boundary=b");
		request.setContent(new byte[100]);
		request.addPart(new MockPart("file", "a.txt", new byte[5]));
		request.addParameter("note", "kept");
		return request;
	}

	/**
	 * A server that parses the body from its own stream, returning once the body has ended.
	 */
	private static final class ServerParse extends HttpServletRequestWrapper {

		private final CountDownLatch bodyEnds;

		final AtomicInteger parses = new AtomicInteger();

		ServerParse(HttpServletRequest request, CountDownLatch bodyEnds) {
			super(request);
			this.bodyEnds = bodyEnds;
		}

		@Override
		public Collection<Part> getParts() throws java.io.IOException, ServletException {
			bodyArrives();
			return super.getParts();
		}

		@Override
		public Part getPart(String name) throws java.io.IOException, ServletException {
			bodyArrives();
			return super.getPart(name);
		}

		@Override
		public Map<String, String[]> getParameterMap() {
			bodyArrives();
			return super.getParameterMap();
		}

		private void bodyArrives() {
			this.parses.incrementAndGet();
			try {
				if (!this.bodyEnds.await(10, TimeUnit.SECONDS)) {
					throw new IllegalStateException("The test's body never ended");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

}

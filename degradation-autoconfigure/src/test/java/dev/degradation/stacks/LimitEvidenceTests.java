package dev.degradation.stacks;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.overload.Admission;
import dev.degradation.overload.QueueDelayLimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What one caller cannot teach the adaptive limit, on a real server of each web stack: its own
 * short deadlines cut neither the limit nor raise the level, and bodies it sends slowly hold no
 * place that ordinary requests need. Every request goes to 127.0.0.1 only, bounded in count and
 * time.
 */
abstract class LimitEvidenceTests {

	/** The deadlines drawn are the same in every run, so that a failure can be replayed. */
	private static final long SEED = 20261204L;

	/** The boundary of the multipart bodies sent to the upload route. */
	private static final String BOUNDARY = "degradation-boundary";

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	OverloadSignal overload;

	@AfterEach
	void drained() {
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
	}

	@Test
	void oneSequentialCallerWithShortDeadlinesLeavesTheLimitInItsHonestRangeAndTheLevelAtZero() throws Exception {
		// The same requests without a deadline first: where honest traffic of this volume leaves it.
		for (int i = 0; i < 40; i++) {
			assertThat(get("/api/work", null).statusCode()).isEqualTo(200);
		}
		int honest = admission().limit();
		assertThat(honest).isGreaterThanOrEqualTo(20);
		long dropped = admission().dropped();
		Random random = new Random(SEED);
		for (int i = 0; i < 150; i++) {
			String deadline = Integer.toString(1 + random.nextInt(10));
			HttpResponse<String> response = get("/api/work", deadline);
			assertThat(response.statusCode()).as("deadline %s ms", deadline).isEqualTo(200);
			if (i % 10 == 9) {
				this.engine.evaluate();
				assertThat(this.engine.state().level()).as("after %d requests: %s", i + 1,
						this.engine.state().reason()).isZero();
			}
		}
		assertThat(admission().dropped()).as("a caller's own deadline is no loss").isEqualTo(dropped);
		assertThat(admission().limit()).as("the limit after the short deadlines").isGreaterThanOrEqualTo(honest);
		this.engine.evaluate();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void slowBodiesAsManyAsTheLimitLeaveOrdinaryRequestsServedAndTheLevelAtZero() throws Exception {
		int limit = admission().limit();
		long admitted = admission().admitted();
		List<Socket> slow = new ArrayList<>();
		List<CompletableFuture<String>> answers = new ArrayList<>();
		ExecutorService readers = Executors.newFixedThreadPool(limit);
		ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
		try {
			for (int i = 0; i < limit; i++) {
				Socket socket = new Socket("127.0.0.1", this.port);
				socket.setSoTimeout(10_000);
				OutputStream out = socket.getOutputStream();
				out.write(("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
						+ "Content-Length: 100\r\n\r\nx").getBytes(StandardCharsets.ISO_8859_1));
				out.flush();
				slow.add(socket);
				// Read as it arrives: the server closes the connection on the unread rest of the
				// body, and a reset discards what was not read before it.
				answers.add(CompletableFuture.supplyAsync(() -> statusLine(socket), readers));
			}
			// A byte of each body every 200 ms, far fewer than the 100 declared, until each is
			// answered: a servlet container's blocking read sees the time only as a byte arrives.
			trickler.scheduleAtFixedRate(() -> trickle(slow), 200, 200, TimeUnit.MILLISECONDS);
			int served = 0;
			int sent = 0;
			long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
			while (System.nanoTime() - end < 0) {
				for (int i = 0; i < 10; i++) {
					long start = System.nanoTime();
					HttpResponse<String> response = get("/api/core", null);
					sent++;
					if (response.statusCode() == 200
							&& System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(500)) {
						served++;
					}
				}
				this.engine.evaluate();
				assertThat(this.engine.state().level()).as(this.engine.state().reason()).isZero();
			}
			assertThat(served).as("ordinary requests served in time of %d", sent).isGreaterThanOrEqualTo(sent * 9 / 10);
			assertThat(admission().admitted() - admitted).as("only the ordinary requests took a place")
				.isEqualTo(sent);
			// The body time-out ends each slow body with a 408 and closes its connection.
			for (CompletableFuture<String> answer : answers) {
				assertThat(answer).succeedsWithin(Duration.ofSeconds(10)).asString().startsWith("HTTP/1.1 408");
			}
		}
		finally {
			trickler.shutdownNow();
			for (Socket socket : slow) {
				socket.close();
			}
			readers.shutdownNow();
		}
		this.engine.evaluate();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void callersThatDoNotReadTheirAnswersHoldNoPlacePastTheBodyTimeoutAndStillGetThemWhole() throws Exception {
		assertSlowReadersHoldNoPlace("/api/large", StackTestApplication.LARGE_ANSWER.length);
	}

	@Test
	void callersThatDoNotReadAFileAnswerHoldNoPlacePastTheBodyTimeoutAndStillGetItWhole() throws Exception {
		assertSlowReadersHoldNoPlace("/api/file", StackTestApplication.LARGE_ANSWER.length);
	}

	@Test
	void callersThatDoNotReadAStreamedAnswerHoldNoPlacePastTheBodyTimeoutAndStillGetItWhole() throws Exception {
		assertSlowReadersHoldNoPlace("/api/stream",
				(long) StackTestApplication.STREAMED_EVENTS * StackTestApplication.STREAMED_EVENT.length());
	}

	@Test
	void aCallersOwnShortDeadlineGivesNoPlaceBackWhileItsStreamRuns() throws Exception {
		// The bound on how long an answer may wait for its caller is the operator's: a caller that
		// sends a deadline of 1 ms and reads its stream at once must not have its place given back
		// after the first events, leaving the rest of the stream's work outside admission.
		long admitted = admission().admitted();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/burst"))
			.timeout(Duration.ofSeconds(10))
			.header("x-envoy-expected-rq-timeout-ms", "1")
			.build();
		CompletableFuture<HttpResponse<String>> burst = this.client.sendAsync(request,
				HttpResponse.BodyHandlers.ofString());
		await().atMost(Duration.ofSeconds(5)).until(() -> admission().admitted() > admitted);
		// The stream's pause is its own work, as long as the pause: its place stays taken.
		await().during(StackTestApplication.BURST_PAUSE.dividedBy(2))
			.atMost(StackTestApplication.BURST_PAUSE)
			.until(() -> admission().inflight() >= 1);
		HttpResponse<String> response = burst.get(10, TimeUnit.SECONDS);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).endsWith("data:end\n\n");
	}

	/**
	 * Ask for an answer far larger than the connection's buffers from callers that read nothing
	 * of it, and assert that their places are given back at the body time-out while the answers
	 * are still being written, that others are served meanwhile, and that each caller still gets
	 * its whole answer (at least {@code length} bytes of body) when it reads at last.
	 */
	void assertSlowReadersHoldNoPlace(String path, long length) throws Exception {
		int limit = admission().limit();
		long admitted = admission().admitted();
		int stalled = 4;
		List<Socket> readers = new ArrayList<>();
		try {
			for (int i = 0; i < stalled; i++) {
				Socket socket = new Socket();
				// A small window, so that the answer stalls as soon as the server's buffers are full.
				socket.setReceiveBufferSize(4096);
				socket.connect(new InetSocketAddress("127.0.0.1", this.port), 5_000);
				socket.setSoTimeout(10_000);
				socket.getOutputStream()
					.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
				socket.getOutputStream().flush();
				readers.add(socket);
			}
			await().atMost(Duration.ofSeconds(5)).until(() -> admission().admitted() - admitted >= stalled);
			// Nothing is read: the answers are still being written past the body time-out (3 s),
			// and their places are given back for others.
			await().atMost(Duration.ofSeconds(8)).until(() -> admission().inflight() == 0);
			for (int i = 0; i < 20; i++) {
				assertThat(get("/api/core", null).statusCode()).isEqualTo(200);
			}
			// Each caller then reads its answer: it arrives whole, nothing was cut.
			for (Socket socket : readers) {
				assertThat(answerLength(socket)).isGreaterThanOrEqualTo(length);
			}
		}
		finally {
			for (Socket socket : readers) {
				socket.close();
			}
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
		assertThat(admission().limit()).as("a caller's slow reading is no evidence").isGreaterThanOrEqualTo(limit);
		this.engine.evaluate();
		assertThat(this.engine.state().level()).isZero();
	}

	/**
	 * Read one answer whole, of a declared length or chunked, and return the length of its body
	 * (with a chunked one, its chunks' sizes and ends too, which is all that is needed here).
	 */
	private static long answerLength(Socket socket) throws IOException {
		InputStream in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
		StringBuilder head = new StringBuilder();
		while (!head.toString().endsWith("\r\n\r\n")) {
			int next = in.read();
			if (next < 0) {
				throw new IOException("The connection closed within the answer's head: " + head);
			}
			head.append((char) next);
		}
		assertThat(head.toString()).startsWith("HTTP/1.1 200");
		String declared = head.toString()
			.lines()
			.filter((line) -> line.regionMatches(true, 0, "Content-Length:", 0, 15))
			.findFirst()
			.map((line) -> line.substring(15).trim())
			.orElse(null);
		long read = 0;
		byte[] buffer = new byte[64 * 1024];
		if (declared != null) {
			long length = Long.parseLong(declared);
			while (read < length) {
				int count = in.read(buffer, 0, (int) Math.min(buffer.length, length - read));
				if (count < 0) {
					break;
				}
				read += count;
			}
			return read;
		}
		// Chunked: read to the last chunk's end.
		byte[] end = "\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
		int matched = 0;
		int next;
		while (matched < end.length && (next = in.read()) >= 0) {
			read++;
			matched = (next == end[matched]) ? matched + 1 : (next == end[0]) ? 1 : 0;
		}
		return read;
	}

	@Test
	void aSlowChunkedBodyIsCutOffAtTheBodyTimeoutAndIsNoSample() throws Exception {
		long succeeded = admission().succeeded();
		long dropped = admission().dropped();
		// A chunk of one byte every 200 ms until the server answers.
		assertCutOffAtTheBodyTimeout("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
				+ "Transfer-Encoding: chunked\r\n\r\n", "1\r\nx\r\n");
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
		assertThat(admission().succeeded()).as("a slow body that ended in an error is no sample").isEqualTo(succeeded);
		assertThat(admission().dropped()).isEqualTo(dropped);
	}

	@Test
	void aSlowFormIsCutOffAtTheBodyTimeoutAsAnyOtherBody() throws Exception {
		// A form is parsed by the server (Spring MVC's parameters) or the exchange (WebFlux's form
		// data) from the body as it came, not from the request the starter bounds: a byte every
		// 200 ms of the 100 declared held the place for 20 s.
		assertCutOffAtTheBodyTimeout("POST /api/form HTTP/1.1\r\nHost: 127.0.0.1\r\n"
				+ "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=", "x");
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
		assertThat(post("/api/form", "name=whole").body()).as("a form that arrives is bound as before")
			.isEqualTo("form whole");
	}

	@Test
	void aSlowChunkedFormIsCutOffAtTheBodyTimeoutAsAFormOfADeclaredLength() throws Exception {
		long succeeded = admission().succeeded();
		long dropped = admission().dropped();
		// A form without a declared length is parsed by the server from its own stream (Spring
		// MVC's parameters): a chunk every 200 ms held the place for as long as its caller liked.
		String status = assertCutOffAtTheBodyTimeout("POST /api/form HTTP/1.1\r\nHost: 127.0.0.1\r\n"
				+ "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
				+ "5\r\nname=\r\n", "1\r\nx\r\n");
		assertThat(status).startsWith("HTTP/1.1 408");
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
		assertThat(admission().succeeded()).as("a slow body is no sample").isEqualTo(succeeded);
		assertThat(admission().dropped()).isEqualTo(dropped);
		HttpResponse<String> chunked = this.client.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/form"))
					.timeout(Duration.ofSeconds(10))
					.header("Content-Type", "application/x-www-form-urlencoded")
					.POST(HttpRequest.BodyPublishers.ofInputStream(
							() -> new ByteArrayInputStream("name=whole".getBytes(StandardCharsets.ISO_8859_1))))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(chunked.body()).as("a chunked form that arrives is bound as before").isEqualTo("form whole");
	}

	@Test
	void aSlowMultipartBodyGivesItsPlaceBackAtTheBodyTimeoutAndIsNoSample() throws Exception {
		long succeeded = admission().succeeded();
		long dropped = admission().dropped();
		long ignored = admission().ignored();
		byte[] file = "x".repeat(100).getBytes(StandardCharsets.ISO_8859_1);
		ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
		ExecutorService reader = Executors.newSingleThreadExecutor();
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(15_000);
			OutputStream out = socket.getOutputStream();
			out.write(multipartHead("slow.txt", file.length));
			out.flush();
			// Read as it arrives: a server that answers at the time-out closes on the unread rest.
			CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> statusLine(socket), reader);
			AtomicInteger sent = new AtomicInteger();
			// One byte of the file every 100 ms: the whole file would take 10 s, the time-out is 3 s.
			trickler.scheduleAtFixedRate(() -> {
				if (sent.get() < file.length) {
					try {
						out.write(file[sent.get()]);
						out.flush();
						sent.incrementAndGet();
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
				}
			}, 100, 100, TimeUnit.MILLISECONDS);
			await().atMost(Duration.ofSeconds(2)).until(() -> admission().inflight() == 1);
			long admitted = System.nanoTime();
			await().atMost(Duration.ofSeconds(5)).until(() -> admission().inflight() == 0);
			assertThat(System.nanoTime() - admitted).as("the place given back at the body time-out")
				.isGreaterThan(TimeUnit.SECONDS.toNanos(2));
			trickler.shutdown();
			assertThat(trickler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
			assertThat(sent.get()).as("given back while the body still trickled").isLessThan(file.length);
			try {
				// The rest at once: a server that parses the parts itself answers once it has them.
				out.write(file, sent.get(), file.length - sent.get());
				out.write(multipartTail());
				out.flush();
			}
			catch (IOException ex) {
				// The server answered at the time-out and closed the connection.
			}
			assertThat(answer).succeedsWithin(Duration.ofSeconds(10)).asString().startsWith("HTTP/1.1 408");
		}
		finally {
			trickler.shutdownNow();
			reader.shutdownNow();
		}
		assertThat(admission().succeeded()).as("a slow body is no sample").isEqualTo(succeeded);
		assertThat(admission().dropped()).isEqualTo(dropped);
		assertThat(admission().ignored()).as("the slow body's place, given back once").isEqualTo(ignored + 1);
		assertThat(admission().inflight()).isZero();
	}

	@Test
	void aMultipartBodyThatArrivesInTimeIsServed() throws Exception {
		byte[] file = "hello".getBytes(StandardCharsets.ISO_8859_1);
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		body.write(filePart("hello.txt"));
		body.write(file);
		body.write(multipartTail());
		long succeeded = admission().succeeded();
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + StackTestApplication.UPLOAD_PATH))
					.timeout(Duration.ofSeconds(10))
					.header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
					.POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("upload hello.txt 5");
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
		assertThat(admission().succeeded()).as("an upload served in time is a sample").isEqualTo(succeeded + 1);
	}

	/**
	 * The head of a request to the upload route whose one file has the given length, and the
	 * head of that file's part: the file's bytes and {@link #multipartTail()} complete it.
	 */
	private static byte[] multipartHead(String filename, int fileLength) {
		byte[] part = filePart(filename);
		int length = part.length + fileLength + multipartTail().length;
		byte[] head = ("POST " + StackTestApplication.UPLOAD_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
				+ "Content-Type: multipart/form-data; boundary=" + BOUNDARY + "\r\nContent-Length: " + length
				+ "\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1);
		byte[] both = Arrays.copyOf(head, head.length + part.length);
		System.arraycopy(part, 0, both, head.length, part.length);
		return both;
	}

	private static byte[] filePart(String filename) {
		return ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename
				+ "\"\r\nContent-Type: text/plain\r\n\r\n")
			.getBytes(StandardCharsets.ISO_8859_1);
	}

	private static byte[] multipartTail() {
		return ("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.ISO_8859_1);
	}

	/**
	 * Send a request's head, then a piece of its body every 200 ms until the server answers, and
	 * assert that it answers with a 4xx well within the test's body time-out (3 s) and the 8 s
	 * the trickle lasts at most.
	 * @return the answer's status line, as far as it was read
	 */
	private String assertCutOffAtTheBodyTimeout(String head, String piece) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			OutputStream out = socket.getOutputStream();
			out.write(head.getBytes(StandardCharsets.ISO_8859_1));
			long start = System.nanoTime();
			InputStream in = socket.getInputStream();
			byte[] first = new byte[12];
			int read = 0;
			socket.setSoTimeout(200);
			while (read < first.length && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(8)) {
				try {
					out.write(piece.getBytes(StandardCharsets.ISO_8859_1));
					out.flush();
				}
				catch (IOException ex) {
					// The server closed the connection after its answer: read it.
				}
				try {
					int count = in.read(first, read, first.length - read);
					if (count < 0) {
						break;
					}
					read += count;
				}
				catch (java.net.SocketTimeoutException ex) {
					// Nothing answered yet.
				}
			}
			long took = System.nanoTime() - start;
			String status = new String(first, 0, read, StandardCharsets.ISO_8859_1);
			assertThat(status).matches("HTTP/1.1 4\\d\\d.*");
			assertThat(took).as("cut off at the body time-out").isLessThan(TimeUnit.SECONDS.toNanos(6));
			return status;
		}
	}

	@Test
	void eachRouteIsSampledAsItsOwnKindByItsHandlersPattern() throws Exception {
		// A route of path variables is one kind, whatever the values: the table stays bounded by
		// the routes, and a fast route's latency is no measure of a slower one's wait.
		for (int i = 0; i < 20; i++) {
			assertThat(get("/api/items/" + i, null).statusCode()).isEqualTo(200);
			assertThat(get("/api/work", null).statusCode()).isEqualTo(200);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> admission().inflight() == 0);
		assertThat(admission().algorithm()).isInstanceOfSatisfying(QueueDelayLimit.class,
				(limit) -> assertThat(limit.kinds()).contains("/api/items/{id}", "/api/work")
					.noneMatch((kind) -> kind.matches("/api/items/\\d+")));
	}

	/** One more byte of every slow body, as a caller trickling it in would. */
	private static void trickle(List<Socket> slow) {
		for (Socket socket : slow) {
			try {
				socket.getOutputStream().write('x');
				socket.getOutputStream().flush();
			}
			catch (IOException ex) {
				// The server has closed it: its answer is read apart.
			}
		}
	}

	private static String statusLine(Socket socket) {
		byte[] line = new byte[12];
		int read = 0;
		try {
			InputStream in = socket.getInputStream();
			while (read < line.length) {
				int count = in.read(line, read, line.length - read);
				if (count < 0) {
					break;
				}
				read += count;
			}
		}
		catch (IOException ex) {
			// A reset after the answer: what arrived before it is the answer.
		}
		return new String(line, 0, read, StandardCharsets.ISO_8859_1);
	}

	Admission admission() {
		OverloadSignal.Active active = this.overload.active();
		assertThat(active).isNotNull();
		return active.admission();
	}

	private HttpResponse<String> post(String path, String form) throws Exception {
		return this.client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(form))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> get(String path, @Nullable String deadline) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10));
		if (deadline != null) {
			request.header("x-envoy-expected-rq-timeout-ms", deadline);
		}
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}

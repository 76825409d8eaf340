package dev.degradation.stacks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.OverloadSignal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A caller's deadline is counted from the request's arrival, not from the end of a body read
 * before admission: the time its body took is time its caller already waited, so a request never
 * waits for a place past its caller's deadline.
 */
abstract class DeadlineAfterBodyTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	int port;

	@Autowired
	OverloadSignal overload;

	@Autowired
	StackTestApplication.Holds holds;

	@AfterEach
	void release() {
		this.holds.reset();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.overload.active().admission().inflight() == 0);
	}

	@Test
	void aRequestWhoseBodyTookMostOfItsDeadlineWaitsForAPlaceOnlyWhatIsLeft() throws Exception {
		ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
		try (HeldPlaces held = HeldPlaces.hold(this.client, this.port, this.holds, 3);
				Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			long start = System.nanoTime();
			// A deadline of 2 s, and a body of 15 bytes, one every 100 ms: read before admission, it
			// took 1.5 s of the 2; the queue would wait 5 s.
			out.write(("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
					+ "x-envoy-expected-rq-timeout-ms: 2000\r\nContent-Length: 15\r\n\r\n")
				.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			AtomicInteger sent = new AtomicInteger();
			trickler.scheduleAtFixedRate(() -> {
				if (sent.incrementAndGet() > 15) {
					throw new CancellationException("the whole body is sent");
				}
				try {
					out.write('x');
					out.flush();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}, 100, 100, TimeUnit.MILLISECONDS);
			// The answer is read as it comes, at most the socket's time-out after the last byte.
			String status = statusLine(socket.getInputStream());
			long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			assertThat(status).startsWith("HTTP/1.1 503");
			assertThat(took).as("refused at its caller's deadline of 2 s, not 2 s after its body").isLessThan(2700);
		}
		finally {
			trickler.shutdownNow();
		}
	}

	private static String statusLine(InputStream in) throws Exception {
		byte[] line = new byte[12];
		int read = 0;
		while (read < line.length) {
			int count = in.read(line, read, line.length - read);
			if (count < 0) {
				break;
			}
			read += count;
		}
		return new String(line, 0, read, StandardCharsets.ISO_8859_1);
	}

}

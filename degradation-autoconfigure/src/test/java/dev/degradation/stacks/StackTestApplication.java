package dev.degradation.stacks;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.server.ServerWebExchange;

import dev.degradation.event.DegradationLevelChangedEvent;
import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.engine.LevelChange;
import dev.degradation.testapp.UnsecuredTestConfiguration;

/**
 * One application for both web stacks: its handlers are written so that Spring MVC and WebFlux
 * serve them alike (a held request is a {@link CompletableFuture}, which neither stack blocks on).
 */
@UnsecuredTestConfiguration
class StackTestApplication {

	@Bean
	Holds holds() {
		return new Holds();
	}

	@Bean
	Events events() {
		return new Events();
	}

	/**
	 * The level changes the application was told of, as a user's listener is told.
	 */
	static final class Events {

		final List<LevelChange> levels = new CopyOnWriteArrayList<>();

		@EventListener
		void levelChanged(DegradationLevelChangedEvent event) {
			this.levels.add(event.getChange());
		}

	}

	/**
	 * Requests held until the test lets them go, so that a test can fill admission's limit.
	 */
	static final class Holds {

		final AtomicInteger started = new AtomicInteger();

		volatile CompletableFuture<String> release = new CompletableFuture<>();

		void reset() {
			this.release.complete("released");
			this.started.set(0);
			this.release = new CompletableFuture<>();
		}

	}

	/**
	 * What a handler does before its guarded call gets no answer, so that the suite can see what of
	 * it a fallback keeps: a session, an answer's headers and a cookie, one header of its own.
	 */
	/** How long {@code /api/work} works. */
	static final long WORK_MILLIS = 12;

	/** The answer of {@code /api/large}. */
	static final byte[] LARGE_ANSWER = new byte[16 * 1024 * 1024];

	/** How many events {@code /api/stream} streams. */
	static final int STREAMED_EVENTS = 4096;

	/** Each event's data. */
	static final String STREAMED_EVENT = "x".repeat(4096);

	/** How many events {@code /api/burst} sends before its pause. */
	static final int BURST_EVENTS = 2;

	/** Each event of the burst. */
	static final String BURST_EVENT = "x".repeat(128);

	/** How long {@code /api/burst} pauses after its burst. */
	static final Duration BURST_PAUSE = Duration.ofMillis(1500);

	static final String REFUSED_CALL_PATH = "/api/stock/{id}";

	static DependencyUnavailableException inventoryUnavailable() {
		return new DependencyUnavailableException("inventory", DependencyUnavailableException.Reason.TIMEOUT,
				"no answer within 200 ms", null);
	}

	@RestController
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class ServletRefusedCallController {

		@GetMapping(REFUSED_CALL_PATH)
		String stock(HttpServletRequest request, HttpServletResponse response) {
			request.getSession(true).setAttribute("user", "u1");
			response.setHeader("X-Handler-Note", "kept");
			response.setHeader("ETag", "\"v7\"");
			response.setHeader("Content-Language", "en");
			response.setHeader("Location", "/api/stock/8");
			response.addCookie(new Cookie("cart", "42"));
			throw inventoryUnavailable();
		}

	}

	/** An answer as large as {@code /api/large}, written as a page is: through the servlet's writer. */
	@RestController
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class ServletPageController {

		@GetMapping("/api/large-page")
		void page(HttpServletResponse response) throws java.io.IOException {
			response.setContentType("text/plain");
			response.setCharacterEncoding("ISO-8859-1");
			response.setContentLength(LARGE_ANSWER.length);
			java.io.PrintWriter writer = response.getWriter();
			char[] line = new char[8192];
			java.util.Arrays.fill(line, 'x');
			for (int written = 0; written < LARGE_ANSWER.length; written += line.length) {
				writer.write(line);
			}
		}

	}

	/**
	 * An answer written a line at a time through the servlet's writer for as long as its caller
	 * reads it, as a servlet streams: it stops when {@link PrintWriter#checkError()} says
	 * the caller left, and tells {@link #TICKS_ENDED} how many lines it wrote.
	 */
	@RestController
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class ServletTicksController {

		/** How many lines the ticks wrote at most: far more than any test waits for. */
		static final int MAX_TICKS = 10_000_000;

		@GetMapping("/api/ticks")
		void ticks(HttpServletResponse response) throws IOException {
			response.setContentType("text/plain");
			PrintWriter writer = response.getWriter();
			// Each line is flushed, so a caller that left makes the next writes fail; a writer
			// that hid the failure would go on until its 10 s are up.
			long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			int ticks = 0;
			while (ticks < MAX_TICKS && System.nanoTime() - end < 0) {
				writer.println("tick " + ticks++);
				writer.flush();
				if (writer.checkError()) {
					break;
				}
			}
			TICKS_ENDED.get().complete(ticks);
		}

	}

	/** How many lines the last {@code /api/ticks} answer wrote once it ended. */
	static final AtomicReference<CompletableFuture<Integer>> TICKS_ENDED = new AtomicReference<>(
			new CompletableFuture<>());

	/** A file as large as {@code /api/large}'s answer, written once, for {@code /api/file}. */
	static final class LargeFile {

		private static @Nullable Path path;

		static synchronized Path path() throws IOException {
			if (path == null) {
				Path file = Files.createTempFile("degradation-large-answer", ".bin");
				file.toFile().deleteOnExit();
				Files.write(file, LARGE_ANSWER);
				path = file;
			}
			return path;
		}

	}

	@RestController
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	static class ReactiveZeroCopyController {

		/** Whether the answer an application writes to can be sent from a file by the server. */
		@GetMapping("/api/zero-copy")
		String zeroCopy(ServerWebExchange exchange) {
			return String.valueOf(exchange.getResponse() instanceof ZeroCopyHttpOutputMessage);
		}

	}

	@RestController
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	static class ReactiveRefusedCallController {

		@GetMapping(REFUSED_CALL_PATH)
		Mono<String> stock(ServerWebExchange exchange) {
			return exchange.getSession().flatMap((session) -> {
				session.getAttributes().put("user", "u1");
				ServerHttpResponse response = exchange.getResponse();
				response.getHeaders().set("X-Handler-Note", "kept");
				response.getHeaders().set("ETag", "\"v7\"");
				response.getHeaders().set("Content-Language", "en");
				response.getHeaders().set("Location", "/api/stock/8");
				response.addCookie(ResponseCookie.from("cart", "42").build());
				return Mono.error(inventoryUnavailable());
			});
		}

	}

	/** The path of an upload, a multipart body whose one file each stack binds in its own way. */
	static final String UPLOAD_PATH = "/api/upload";

	@RestController
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class ServletUploadController {

		/** The file as Spring MVC binds it: from the parts the server parsed itself. */
		@PostMapping(path = UPLOAD_PATH, consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
		String upload(@RequestParam("file") MultipartFile file) {
			return "upload " + file.getOriginalFilename() + " " + file.getSize();
		}

	}

	@RestController
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	static class ReactiveUploadController {

		/** The file as WebFlux binds it: from the exchange's multipart data. */
		@PostMapping(path = UPLOAD_PATH, consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
		Mono<String> upload(@RequestPart("file") FilePart file) {
			return file.content().map((buffer) -> {
				int size = buffer.readableByteCount();
				DataBufferUtils.release(buffer);
				return size;
			}).reduce(0, Integer::sum).map((size) -> "upload " + file.filename() + " " + size);
		}

	}

	/**
	 * The fields of the form {@code /api/form} takes.
	 * @param name the one field
	 */
	record FormFields(@Nullable String name) {

	}

	@RestController
	static class StackController {

		private final Holds holds;

		StackController(Holds holds) {
			this.holds = holds;
		}

		@GetMapping("/api/items/{id}")
		String item(@PathVariable String id) {
			return "live item " + id;
		}

		@PostMapping("/api/track")
		String track() {
			return "tracked";
		}

		@GetMapping("/api/report")
		String report() {
			return "live report";
		}

		@GetMapping("/api/core")
		String core() {
			return "core";
		}

		/** The thread that runs the handler, as it names itself. */
		@GetMapping("/api/thread")
		String thread() {
			return Thread.currentThread().toString();
		}

		@PostMapping("/api/echo")
		String echo(@RequestBody String body) {
			return body;
		}

		/**
		 * How the request's body was framed, as the server handed it to the application: the
		 * length it declared and its transfer coding, each {@code null} when absent.
		 */
		@PostMapping("/api/framing")
		String framing(@RequestHeader HttpHeaders headers, @RequestBody String body) {
			return "length=" + headers.getFirst(HttpHeaders.CONTENT_LENGTH) + " coding="
					+ headers.getFirst(HttpHeaders.TRANSFER_ENCODING) + " body=" + body;
		}

		/** A form's fields, bound as each stack binds a form: the server's parameters, the exchange's form data. */
		@PostMapping(path = "/api/form", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
		String form(@ModelAttribute FormFields fields) {
			return "form " + fields.name();
		}

		/** Work of its own for a little longer than a short deadline, on neither stack's threads. */
		@GetMapping("/api/work")
		CompletableFuture<String> work() {
			return CompletableFuture.supplyAsync(() -> "worked",
					CompletableFuture.delayedExecutor(WORK_MILLIS, TimeUnit.MILLISECONDS));
		}

		/** An answer far larger than a socket's buffers: a caller that does not read it stalls its write. */
		@GetMapping(path = "/api/large", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
		byte[] large() {
			return LARGE_ANSWER;
		}

		/**
		 * An answer as large, from a file: Spring MVC copies it to the answer's stream, WebFlux has
		 * the server send it from the file itself where the server can.
		 */
		@GetMapping(path = "/api/file", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
		Resource file() throws IOException {
			return new FileSystemResource(LargeFile.path());
		}

		/**
		 * An answer as large, streamed as events: each stack writes it piece by piece as the
		 * connection takes it (Spring MVC asynchronously), not whole.
		 */
		@GetMapping(path = "/api/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
		Flux<String> stream() {
			return Flux.range(0, STREAMED_EVENTS).map((event) -> STREAMED_EVENT);
		}

		/**
		 * A stream as events often come: a few at once, each waiting a moment for the server to
		 * take it, then a pause in which the stream has nothing to send and the caller waits for
		 * nothing.
		 */
		@GetMapping(path = "/api/burst", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
		Flux<String> burst() {
			return Flux.concat(Flux.range(0, BURST_EVENTS).map((event) -> BURST_EVENT),
					Mono.delay(BURST_PAUSE).map((paused) -> "end"));
		}

		@GetMapping("/api/hold")
		CompletableFuture<String> hold() {
			CompletableFuture<String> release = this.holds.release;
			this.holds.started.incrementAndGet();
			return release;
		}

	}

}

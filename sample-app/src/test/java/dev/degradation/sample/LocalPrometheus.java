package dev.degradation.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus server (Debian's {@code prometheus}) on a free loopback port, scraping one
 * target every second and evaluating the given rule file every second, with its storage in a
 * folder of the test's. Closing it stops the process.
 */
final class LocalPrometheus implements AutoCloseable {

	/** The scrape job's name, the {@code job} label of every series. */
	static final String JOB = "sample-shop";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Process process;

	private final URI url;

	private final Path log;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private LocalPrometheus(Process process, URI url, Path log) {
		this.process = process;
		this.url = url;
		this.log = log;
	}

	/**
	 * Start Prometheus and wait until it is ready.
	 * @param executable the {@code prometheus} program
	 * @param target the scraped service's port on 127.0.0.1 ({@code /actuator/prometheus})
	 * @param rules the rule file to load
	 * @param folder a folder for its configuration, storage and log
	 * @return the running server
	 * @throws IOException if it cannot be started
	 */
	static LocalPrometheus start(Path executable, int target, Path rules, Path folder) throws IOException {
		Path config = folder.resolve("prometheus.yml");
		Files.writeString(config, """
				global:
				  scrape_interval: 1s
				  scrape_timeout: 1s
				  evaluation_interval: 1s
				rule_files:
				  - '%s'
				scrape_configs:
				  - job_name: %s
				    metrics_path: /actuator/prometheus
				    static_configs:
				      - targets: ['127.0.0.1:%d']
				""".formatted(rules, JOB, target));
		int port = freePort();
		Path log = folder.resolve("prometheus.log");
		Process process = new ProcessBuilder(executable.toString(), "--config.file=" + config,
				"--storage.tsdb.path=" + folder.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
				"--log.level=warn")
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		LocalPrometheus prometheus = new LocalPrometheus(process, URI.create("http://127.0.0.1:" + port), log);
		try {
			await("Prometheus ready on port " + port).atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> {
					if (!process.isAlive()) {
						throw new IllegalStateException("Prometheus exited: " + prometheus.log());
					}
					return prometheus.status("/-/ready") == 200;
				});
		}
		catch (RuntimeException ex) {
			prometheus.close();
			throw ex;
		}
		return prometheus;
	}

	/**
	 * Evaluate a PromQL expression now.
	 * @param promql the expression
	 * @return Prometheus's answer: {@code status} ({@code success} or {@code error}), {@code error}
	 * and {@code data.result}
	 */
	JsonNode query(String promql) {
		return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
	}

	/**
	 * The rule groups as Prometheus loaded them, with each rule's health.
	 * @return the {@code data.groups} of {@code /api/v1/rules}
	 */
	JsonNode rules() {
		return get("/api/v1/rules").path("data").path("groups");
	}

	/**
	 * Prometheus's own log, for a failure's message.
	 * @return its last lines
	 */
	String log() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	private JsonNode get(String path) {
		HttpResponse<String> response = send(path);
		return JSON.readTree(response.body());
	}

	private int status(String path) {
		try {
			return send(path).statusCode();
		}
		catch (UncheckedIOException ex) {
			return -1;
		}
	}

	private HttpResponse<String> send(String path) {
		HttpRequest request = HttpRequest.newBuilder(this.url.resolve(path)).timeout(Duration.ofSeconds(10)).build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}

package dev.degradation.cli;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code walk} against the sample shop running as its own process (its jar, on loopback): every
 * route degrades as declared, with the manifest file or with only the service's address; a route
 * that matches no handler fails; the same shop without the starter fails with every route named;
 * a read-only endpoint is refused with why, in one line; and a walk leaves the simulation as it
 * found it.
 */
class ManifestWalkIntegrationTests {

	private static final Path SAMPLE_JAR = Path.of("../sample-app/target/sample-app.jar");

	private static final Path MANIFEST = Path.of("../sample-app/src/main/resources/degradation-manifest.yaml");

	private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");

	@Test
	void everyRouteOfTheRunningSampleDegradesAsDeclared() throws Exception {
		try (Shop shop = Shop.start()) {
			Walk walk = walk(shop);
			assertThat(walk.status()).as(walk.out()).isEqualTo(ManifestCli.VALID);
			assertThat(walk.out()).contains("15 checks at 3 levels, every route degrades as declared");
		}
	}

	@Test
	void withOnlyTheBaseUrlTheWalkChecksTheRoutesOfTheManifestTheServiceRuns() throws Exception {
		try (Shop shop = Shop.start()) {
			Walk walk = run("walk", "--base-url", "http://127.0.0.1:" + shop.port);
			assertThat(walk.status()).as(walk.out()).isEqualTo(ManifestCli.VALID);
			assertThat(walk.out()).contains("degradation-manifest.yaml against http://127.0.0.1:" + shop.port
					+ "/: 15 checks at 3 levels, every route degrades as declared");
		}
	}

	@Test
	void aRouteThatMatchesNoHandlerOfTheServiceFailsTheWalk(@TempDir Path directory) throws Exception {
		Path typo = directory.resolve("degradation-manifest.yaml");
		Files.writeString(typo, Files.readString(MANIFEST).replace("path: /api/recommendations",
				"path: /api/recomendations"));
		try (Shop shop = Shop.start("--degradation.manifest=file:" + typo.toAbsolutePath(), "--degradation.verify=warn")) {
			Walk walk = run("walk", "--base-url", "http://127.0.0.1:" + shop.port);
			assertThat(walk.status()).as(walk.out()).isEqualTo(ManifestCli.INVALID);
			assertThat(walk.out()).containsOnlyOnce("GET /api/recomendations: matches no handler of the service, at any "
					+ "level")
				.contains(":55:9: GET /api/recomendations")
				.contains("1 failed");
		}
	}

	@Test
	void withoutTheStarterEveryRouteIsNamedAndTheStatusIsNotZero() throws Exception {
		try (Shop shop = Shop.start("--degradation.enabled=false")) {
			Walk walk = walk(shop);
			assertThat(walk.status()).isEqualTo(ManifestCli.INVALID);
			assertThat(walk.out()).contains("not the degradation endpoint")
				.contains("degradation-manifest.yaml:38:9: POST /api/analytics/track: not checked")
				.contains("GET /api/recommendations: not checked");
		}
	}

	@Test
	void aReadOnlyEndpointIsRefusedWithWhy() throws Exception {
		try (Shop shop = Shop.start("--management.endpoint.degradation.access=read-only")) {
			Walk walk = walk(shop);
			assertThat(walk.status()).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
			assertThat(walk.out()).contains("the endpoint is read-only")
				.contains("management.endpoint.degradation.access=unrestricted")
				.doesNotContain("could not restore");
			assertThat(walk.out().lines()).hasSize(1);
		}
	}

	@Test
	void aWalkLeavesTheSimulationAsItFoundIt() throws Exception {
		try (Shop shop = Shop.start()) {
			String simulate = "{\"enabled\": true, \"level\": 1}";
			assertThat(shop.post("/actuator/degradation", simulate)).contains("\"simulation\":{\"enabled\":true,\"level\":1}");
			Walk walk = walk(shop);
			assertThat(walk.status()).as(walk.out()).isEqualTo(ManifestCli.VALID);
			assertThat(shop.get("/actuator/degradation")).contains("\"simulation\":{\"enabled\":true,\"level\":1}");
		}
	}

	@Test
	void aServiceInUseIsWalkedRequestByRequestAndItsOtherCallersSeeNoDegradedAnswer() throws Exception {
		String token = "a-token-of-at-least-16-characters";
		// Read-only: the walk could not move the level if it tried.
		try (Shop shop = Shop.start("--degradation.simulation.requests.enabled=true",
				"--degradation.simulation.requests.token=" + token, "--management.endpoint.degradation.access=read-only")) {
			java.util.concurrent.atomic.AtomicBoolean walking = new java.util.concurrent.atomic.AtomicBoolean(true);
			List<String> degraded = new java.util.concurrent.CopyOnWriteArrayList<>();
			java.util.concurrent.atomic.LongAdder served = new java.util.concurrent.atomic.LongAdder();
			HttpClient others = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
			CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
				List<String> paths = List.of("/api/recommendations", "/api/personalization", "/api/ab/assign",
						"/api/checkout/suggestions");
				for (int i = 0; walking.get() && i < 5000; i++) {
					String path = paths.get(i % paths.size());
					try {
						HttpResponse<String> answer = others.send(HttpRequest.newBuilder(shop.uri(path))
							.timeout(Duration.ofSeconds(10))
							.build(), HttpResponse.BodyHandlers.ofString());
						served.increment();
						if (answer.headers().firstValue("X-Degraded").isPresent()) {
							degraded.add(path + " " + answer.headers().firstValue("X-Degradation-Reason").orElse(""));
						}
					}
					catch (IOException | InterruptedException ex) {
						degraded.add(path + " " + ex);
					}
				}
			}, java.util.concurrent.Executors.newSingleThreadExecutor());
			Walk walk;
			try {
				walk = run("walk", "--base-url", "http://127.0.0.1:" + shop.port, "--simulation-token", token,
						"--per-request");
			}
			finally {
				walking.set(false);
				load.get(30, TimeUnit.SECONDS);
			}
			assertThat(walk.status()).as(walk.out()).isEqualTo(ManifestCli.VALID);
			assertThat(walk.out()).contains("15 checks at 3 levels (each request simulating for itself), every route "
					+ "degrades as declared");
			assertThat(served.sum()).isPositive();
			assertThat(degraded).isEmpty();
			assertThat(shop.get("/actuator/degradation")).contains("\"level\":0")
				.contains("\"simulation\":{\"enabled\":false,\"level\":0}");
		}
	}

	@Test
	void insistingOnRequestSimulationAgainstAServiceWithoutItMovesNothingAndSaysWhy() throws Exception {
		try (Shop shop = Shop.start()) {
			Walk walk = run("walk", "--base-url", "http://127.0.0.1:" + shop.port, "--simulation-token",
					"a-token-of-at-least-16-characters", "--per-request");
			assertThat(walk.status()).isEqualTo(ManifestCli.USAGE_OR_IO_ERROR);
			assertThat(walk.out()).contains("does not let a request simulate for itself")
				.contains("degradation.simulation.requests.enabled");
			assertThat(shop.get("/actuator/degradation")).contains("\"simulation\":{\"enabled\":false,\"level\":0}");
		}
		assertThat(run("walk", "--base-url", "http://127.0.0.1:9", "--per-request").out())
			.contains("--per-request needs the service's token");
	}

	private static Walk walk(Shop shop) {
		return run("walk", MANIFEST.toString(), "--base-url", "http://127.0.0.1:" + shop.port, "--property",
				"sample.dependencies.recommendations-api.url=http://x", "--property",
				"sample.dependencies.analytics-collector.url=http://x", "--property",
				"sample.dependencies.personalization-service.url=http://x");
	}

	private static Walk run(String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ManifestCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8));
		return new Walk(status, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
	}

	private record Walk(int status, String out) {

	}

	/**
	 * The sample shop in a process of its own, on a free loopback port.
	 */
	private static final class Shop implements AutoCloseable {

		private final Process process;

		private final int port;

		private Shop(Process process, int port) {
			this.process = process;
			this.port = port;
		}

		static Shop start(String... arguments) throws IOException, InterruptedException {
			assertThat(SAMPLE_JAR).as("the sample's jar, built before this module").exists();
			List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
				.toString(), "-Xmx256m", "-jar", SAMPLE_JAR.toString(), "--server.address=127.0.0.1", "--server.port=0",
					"--degradation.probes.enabled=false"));
			command.addAll(List.of(arguments));
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			CompletableFuture<Integer> port = new CompletableFuture<>();
			java.util.Deque<String> lastLines = new java.util.concurrent.ConcurrentLinkedDeque<>();
			// A thread of its own, reading the shop's output for as long as it runs: the common
			// pool has one thread on a 2-core machine, and a shop whose output is not read blocks
			// once the pipe is full.
			Thread reader = new Thread(() -> read(process, port, lastLines), "sample-output");
			reader.setDaemon(true);
			reader.start();
			try {
				return new Shop(process, port.get(90, TimeUnit.SECONDS));
			}
			catch (Exception ex) {
				process.destroyForcibly();
				throw new IllegalStateException("The sample did not start within 90 s; its last lines:\n"
						+ String.join("\n", lastLines), ex);
			}
		}

		private static void read(Process process, CompletableFuture<Integer> port, java.util.Deque<String> lastLines) {
			try (BufferedReader lines = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = lines.readLine()) != null) {
					if (!port.isDone()) {
						lastLines.addLast(line);
						if (lastLines.size() > 40) {
							lastLines.removeFirst();
						}
						Matcher matcher = STARTED.matcher(line);
						if (matcher.find()) {
							port.complete(Integer.valueOf(matcher.group(1)));
						}
					}
				}
				port.completeExceptionally(new IllegalStateException("The sample stopped before it started"));
			}
			catch (IOException ex) {
				port.completeExceptionally(ex);
			}
		}

		String get(String path) throws IOException, InterruptedException {
			return send(HttpRequest.newBuilder(uri(path)).GET());
		}

		String post(String path, String json) throws IOException, InterruptedException {
			return send(HttpRequest.newBuilder(uri(path))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(json)));
		}

		private URI uri(String path) {
			return URI.create("http://127.0.0.1:" + this.port + path);
		}

		private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
			return HttpClient.newHttpClient()
				.send(request.timeout(Duration.ofSeconds(10)).build(),
						HttpResponse.BodyHandlers.ofString())
				.body();
		}

		@Override
		public void close() throws InterruptedException {
			this.process.destroy();
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}

	}

}

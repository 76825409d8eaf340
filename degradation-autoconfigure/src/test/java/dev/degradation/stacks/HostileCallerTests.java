package dev.degradation.stacks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.overload.Admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What one caller can do to everyone else, tried on a real server of each web stack (and with the
 * Actuator on a separate management port): no deadline or priority header moves the shed level
 * for others, and no form of a write's URL, query or body makes a write land on another target
 * than the one its path names, nor makes an audit line name another.
 */
@ExtendWith(OutputCaptureExtension.class)
abstract class HostileCallerTests {

	private static final JsonMapper JSON = JsonMapper.shared();

	/** The generated URL forms are the same in every run, so that a failure can be replayed. */
	private static final long SEED = 20261203L;

	// HTTP/1.1 without an upgrade: the JDK's client would offer h2c beside the Connection: close
	// each request asks for, and Jetty refuses those headers together (400).
	private final HttpClient client = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(5))
		.version(HttpClient.Version.HTTP_1_1)
		.build();

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Autowired
	OverloadSignal overload;

	@Autowired
	StackTestApplication.Holds holds;

	/**
	 * The port the Actuator answers on: the application's port, or the management port where it is
	 * separate (Spring Boot gives the application's port this name too when they are one).
	 */
	@LocalManagementPort
	int managementPort;

	@BeforeEach
	@AfterEach
	void restore() throws Exception {
		this.holds.reset();
		for (String target : List.of("switches/best-effort", "switches/enhanced", "dependencies/inventory")) {
			send(this.managementPort, "DELETE", "/actuator/degradation/" + target, null);
		}
		send(this.managementPort, "DELETE", "/actuator/degradation", null);
		await().atMost(Duration.ofSeconds(10)).until(() -> overrides().isEmpty()
				&& this.overload.active().admission().inflight() == 0);
		this.engine.evaluate();
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void noDeadlineOrPriorityHeaderOfOneCallerMovesTheLevelForEveryone() throws Exception {
		List<String> deadlines = List.of("0", "-1", "-9223372036854775808", "1", "garbage", "", "1e30",
				"99999999999999999999", "3153600000000");
		List<String> priorities = List.of("1", "0", "-5", "core", "1000", "garbage", "2147483648");
		for (String path : List.of("/api/core", "/api/items/1")) {
			for (String deadline : deadlines) {
				send(this.port, "GET", path, null, "x-envoy-expected-rq-timeout-ms", deadline);
			}
			for (String priority : priorities) {
				send(this.port, "GET", path, null, "X-Degradation-Priority", priority);
			}
		}
		for (String deadline : deadlines) {
			send(this.port, "POST", "/api/track", "", "x-envoy-expected-rq-timeout-ms", deadline);
		}
		assertNoLevelAfterEvaluations();
		// Two of three places held: requests turned away by their share or by a lowered priority
		// while a place is free say nothing of the service's load.
		try (HeldPlaces held = HeldPlaces.hold(this.client, this.port, this.holds, 2)) {
			for (int i = 0; i < 20; i++) {
				HttpResponse<String> lowered = send(this.port, "GET", "/api/core", null, "X-Degradation-Priority",
						"1");
				assertThat(lowered.statusCode()).as("a core request its caller ranked as best-effort").isEqualTo(503);
				HttpResponse<String> shed = send(this.port, "POST", "/api/track", "");
				assertThat(shed.statusCode()).as("best-effort over its share").isEqualTo(204);
			}
			assertThat(this.overload.active().admission().inflight()).isEqualTo(2);
			assertNoLevelAfterEvaluations();
		}
	}

	@Test
	void loadThatTakesEveryPlaceStillRaisesTheLevel() throws Exception {
		try (HeldPlaces held = HeldPlaces.hold(this.client, this.port, this.holds, 3)) {
			this.engine.evaluate();
			assertThat(this.engine.state().level()).isPositive();
			assertThat(this.engine.state().demands().get(OverloadSignal.NAME).reason())
				.contains("admission saturated (limit 3, 3 in flight");
		}
	}

	@Test
	void theActuatorAnswersWhileEveryPlaceIsHeldAndItsPrefixIsNoWayPastAdmissionOnAnotherPort() throws Exception {
		try (HeldPlaces held = HeldPlaces.hold(this.client, this.port, this.holds, 3)) {
			assertThat(send(this.managementPort, "GET", "/actuator/degradation", null).statusCode()).isEqualTo(200);
			if (this.managementPort != this.port) {
				// The Actuator is not on the application's port: its base path there is a path like
				// any other, decided like any other, not a way past admission.
				assertThat(send(this.port, "GET", "/actuator/degradation", null).statusCode()).isEqualTo(503);
			}
		}
	}

	@Test
	void noFormOfASwitchWriteLandsOnAnotherTargetThanItsPathNames(CapturedOutput output) throws Exception {
		SoftAssertions softly = new SoftAssertions();
		for (WriteForm form : switchForms()) {
			int logged = output.length();
			HttpResponse<String> response = send(this.managementPort, "POST", form.path(), form.body());
			Set<String> changed = overrides();
			softly.assertThat(changed).as("%s %s %s -> %d %s", "POST", form.path(), form.body(),
					response.statusCode(), response.body())
				.isIn(Set.of(), Set.of("switches/best-effort"));
			softly.assertThat(changed.isEmpty()).as("%s: changed exactly when answered 200", form.path())
				.isEqualTo(response.statusCode() != 200);
			String audit = output.toString().substring(logged);
			softly.assertThat(audit).as("the audit of %s", form.path()).doesNotContain("Switch 'enhanced'");
			if (!changed.isEmpty()) {
				softly.assertThat(audit).as("the audit of %s", form.path()).contains("Switch 'best-effort' off");
			}
			if (!changed.isEmpty()) {
				send(this.managementPort, "DELETE", "/actuator/degradation/switches/best-effort", null);
				await().atMost(Duration.ofSeconds(5)).until(() -> overrides().isEmpty());
			}
		}
		softly.assertAll();
	}

	@Test
	void noFormOfADeleteRemovesAnotherOverrideThanItsPathNames() throws Exception {
		SoftAssertions softly = new SoftAssertions();
		for (WriteForm form : switchForms()) {
			if (form.body().contains("name") || form.body().contains("section")) {
				// A DELETE takes no body: its forms are those of the path and the query.
				continue;
			}
			send(this.managementPort, "POST", "/actuator/degradation/switches/enhanced", "{\"state\": \"off\"}");
			send(this.managementPort, "POST", "/actuator/degradation/switches/best-effort", "{\"state\": \"off\"}");
			HttpResponse<String> response = send(this.managementPort, "DELETE", form.path(), null);
			Set<String> left = overrides();
			softly.assertThat(left).as("DELETE %s -> %d %s", form.path(), response.statusCode(), response.body())
				.isIn(Set.of("switches/enhanced", "switches/best-effort"), Set.of("switches/enhanced"));
			softly.assertThat(left.size() == 1).as("DELETE %s: removed exactly when answered 200", form.path())
				.isEqualTo(response.statusCode() == 200);
			send(this.managementPort, "DELETE", "/actuator/degradation/switches/enhanced", null);
			send(this.managementPort, "DELETE", "/actuator/degradation/switches/best-effort", null);
		}
		softly.assertAll();
	}

	@Test
	void aDependencyCannotBeForcedThroughAnotherFormOfItsUrl() throws Exception {
		for (String path : List.of("/actuator/degradation/%64ependencies/inventory",
				"/actuator/degradation/dependencies;a=b/inventory", "/actuator/degradation/dependencies/inventor%79")) {
			HttpResponse<String> renamed = send(this.managementPort, "POST", path,
					"{\"state\": \"down\", \"name\": \"recommendations\"}");
			assertThat(renamed.statusCode()).as(renamed.body()).isEqualTo(400);
			assertThat(renamed.body()).contains("'name' is not taken in the body: the URL names the target "
					+ "(dependencies/inventory)");
			assertThat(overrides()).isEmpty();
		}
	}

	@Test
	void theSimulationTakesNoFormThatSkipsItsTypes() throws Exception {
		for (String path : List.of("/actuator/degradation;x=1", "/actuator/degradation/", "/actuator//degradation",
				"/act%75ator/degradation")) {
			HttpResponse<String> response = send(this.managementPort, "POST", path,
					"{\"enabled\": \"yes\", \"level\": \"1\"}");
			assertThat(response.statusCode()).as(path).isIn(400, 404);
			assertThat(this.engine.state().simulation().enabled()).as(path).isFalse();
		}
		HttpResponse<String> typed = send(this.managementPort, "POST", "/actuator/degradation;x=1",
				"{\"enabled\": \"yes\", \"level\": \"1\"}");
		assertThat(JSON.readTree(typed.body()).get("message").asString())
			.contains("'enabled' must be true or false, but was the string \"yes\"");
	}

	@Test
	void aLargeBodyIsRefusedBeforeItIsRead() throws Exception {
		for (String path : List.of("/actuator/degradation", "/actuator/degradation;x=1",
				"/actuator/degradation/%73witches/best-effort")) {
			// A 20 MB body is announced and never sent: only a refusal that reads none of it answers.
			try (Socket socket = new Socket("127.0.0.1", this.managementPort)) {
				socket.setSoTimeout(10_000);
				socket.getOutputStream()
					.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
							+ "Content-Length: " + (20 * 1024 * 1024) + "\r\n\r\n")
						.getBytes(StandardCharsets.US_ASCII));
				socket.getOutputStream().flush();
				StringBuilder answer = new StringBuilder();
				byte[] buffer = new byte[512];
				int read;
				while (!answer.toString().contains("bytes\"") && (read = socket.getInputStream().read(buffer)) > 0) {
					answer.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
				}
				assertThat(answer.toString()).as(path).startsWith("HTTP/1.1 413 ").contains("The body is larger than 16384 bytes");
			}
		}
		assertThat(overrides()).isEmpty();
	}

	@Test
	void aTtlSaysItsUnit() throws Exception {
		for (String ttl : List.of("60", "1ns", "500ms", "0s", "PT0.5S", "-5m", "15 minutes", "P1000D")) {
			HttpResponse<String> response = send(this.managementPort, "POST",
					"/actuator/degradation/switches/best-effort", "{\"state\": \"off\", \"ttl\": \"" + ttl + "\"}");
			assertThat(response.statusCode()).as(ttl + ": " + response.body()).isEqualTo(400);
			assertThat(response.body()).containsAnyOf("'ttl' must be a duration with its unit",
					"'ttl' must be at least 1s");
			assertThat(overrides()).isEmpty();
		}
		for (String ttl : List.of("90s", "15m", "2h", "PT15M")) {
			HttpResponse<String> response = send(this.managementPort, "POST",
					"/actuator/degradation/switches/best-effort", "{\"state\": \"off\", \"ttl\": \"" + ttl + "\"}");
			assertThat(response.statusCode()).as(ttl + ": " + response.body()).isEqualTo(200);
		}
	}

	@Test
	void aProblemJsonBodyIsRefusedWithTheTypesTaken() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(uri(this.managementPort, "/actuator/degradation"))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/problem+json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"enabled\": true, \"level\": 1}"))
			.build();
		HttpResponse<String> response = this.client.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(415);
		JsonNode body = JSON.readTree(response.body());
		assertThat(body.get("status").asInt()).isEqualTo(415);
		assertThat(body.get("message").asString()).contains("application/problem+json")
			.contains("accepted: application/vnd.spring-boot.actuator.v3+json");
		assertThat(this.engine.state().simulation().enabled()).isFalse();
	}

	@Test
	void aBodyThatTricklesInHoldsNoPlaceAndIsCutOffAtItsCallersDeadline() throws Exception {
		Admission admission = this.overload.active().admission();
		long admitted = admission.admitted();
		int length = 100;
		AtomicInteger sent = new AtomicInteger();
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(15_000);
			OutputStream output = socket.getOutputStream();
			output.write(("POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
					+ "Content-Length: " + length + "\r\nx-envoy-expected-rq-timeout-ms: 1000\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			output.flush();
			long start = System.nanoTime();
			ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
			// One byte every 100 ms: the whole body would take 10 s, ten times the deadline.
			trickle.scheduleAtFixedRate(() -> {
				try {
					if (sent.get() < length) {
						output.write('x');
						output.flush();
						sent.incrementAndGet();
					}
				}
				catch (IOException ex) {
					// The server gave up on the body and closed: the trickle ends.
					trickle.shutdown();
				}
			}, 0, 100, TimeUnit.MILLISECONDS);
			// A body of a declared length within the read-ahead bound is read before admission.
			String status = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
					StandardCharsets.US_ASCII)).readLine();
			long cutMillis = (System.nanoTime() - start) / 1_000_000;
			assertThat(status).matches("HTTP/1.1 408.*");
			assertThat(sent.get()).as("cut off while the body still trickles").isLessThan(length);
			assertThat(cutMillis).as("cut past the deadline by at most a few trickles and the machine's lag")
				.isLessThan(4000);
			assertThat(admission.admitted()).as("the slow body took no place").isEqualTo(admitted);
			trickle.shutdownNow();
		}
		assertThat(send(this.port, "GET", "/api/core", null).statusCode()).isEqualTo(200);
	}

	/**
	 * The forms of {@code POST /actuator/degradation/switches/best-effort}: percent-encodings of
	 * each character, path parameters on each segment, slashes, case, query keys and body keys that
	 * name another target, and random mixtures of them.
	 */
	static List<WriteForm> switchForms() {
		List<String> base = List.of("actuator", "degradation", "switches", "best-effort");
		List<List<String>> paths = new ArrayList<>();
		paths.add(base);
		for (int segment = 0; segment < base.size(); segment++) {
			String value = base.get(segment);
			paths.add(with(base, segment, encode(value.charAt(0)) + value.substring(1)));
			paths.add(with(base, segment, value.substring(0, value.length() - 1) + encode(value.charAt(value.length() - 1))));
			paths.add(with(base, segment, value.chars().mapToObj((c) -> encode((char) c)).collect(Collectors.joining())));
			paths.add(with(base, segment, value + ";name=enhanced"));
			paths.add(with(base, segment, value.toUpperCase(Locale.ROOT)));
		}
		Random random = new Random(SEED);
		for (int i = 0; i < 10; i++) {
			List<String> mixed = new ArrayList<>(base);
			for (int segment = 0; segment < mixed.size(); segment++) {
				StringBuilder value = new StringBuilder();
				for (char c : mixed.get(segment).toCharArray()) {
					value.append(random.nextInt(3) == 0 ? encode(c) : String.valueOf(c));
				}
				if (random.nextBoolean()) {
					value.append(";x=").append(random.nextInt(100));
				}
				mixed.set(segment, value.toString());
			}
			paths.add(mixed);
		}
		String plain = "{\"state\": \"off\"}";
		List<WriteForm> forms = new ArrayList<>();
		for (List<String> segments : paths) {
			String path = "/" + String.join("/", segments);
			forms.add(new WriteForm(path, plain));
			forms.add(new WriteForm(path, "{\"state\": \"off\", \"name\": \"enhanced\"}"));
			forms.add(new WriteForm(path + "?name=enhanced", plain));
		}
		String path = "/actuator/degradation/switches/best-effort";
		forms.add(new WriteForm(path, "{\"state\": \"off\", \"section\": \"dependencies\"}"));
		forms.add(new WriteForm(path + "/", plain));
		forms.add(new WriteForm("/actuator/degradation//switches//best-effort", plain));
		forms.add(new WriteForm(path + "?section=dependencies&name=inventory", plain));
		forms.add(new WriteForm(path + "?state=on", plain));
		forms.add(new WriteForm(path + "?", plain));
		return forms;
	}

	private static List<String> with(List<String> segments, int index, String value) {
		List<String> copy = new ArrayList<>(segments);
		copy.set(index, value);
		return copy;
	}

	private static String encode(char c) {
		return String.format("%%%02X", (int) c);
	}

	private void assertNoLevelAfterEvaluations() {
		for (int i = 0; i < 3; i++) {
			assertThat(this.engine.evaluate().level()).as(this.engine.state().reason()).isZero();
		}
	}

	/**
	 * The targets operators have set at run time, as the endpoint lists them.
	 */
	private Set<String> overrides() throws Exception {
		HttpResponse<String> status = send(this.managementPort, "GET", "/actuator/degradation", null);
		Set<String> targets = new TreeSet<>();
		for (JsonNode override : JSON.readTree(status.body()).get("overrides")) {
			String target = override.get("target").asString();
			if (!target.equals("simulation")) {
				targets.add(target);
			}
		}
		return targets;
	}


	private HttpResponse<String> send(int port, String method, String path, String json, String... headers)
			throws IOException, InterruptedException {
		// A connection per request: see the surefire configuration's allowRestrictedHeaders.
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(port, path))
			.timeout(Duration.ofSeconds(10))
			.header("Connection", "close");
		if (json != null) {
			request.header("Content-Type", "application/json");
		}
		for (int i = 0; i < headers.length; i += 2) {
			if (!headers[i + 1].isEmpty()) {
				request.header(headers[i], headers[i + 1]);
			}
		}
		return this.client.send(request.method(method, (json != null)
				? HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8) : HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI uri(int port, String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

	/**
	 * One form of a write: its raw path (with any query) and its body.
	 */
	record WriteForm(String path, String body) {

	}

}

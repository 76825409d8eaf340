package dev.degradation.priority;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

import dev.degradation.fixture.Answer;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.overload.Admission;
import dev.degradation.overload.PassedPriority;
import dev.degradation.engine.OverloadSignal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A request's priority travels to the services it calls: three services on loopback, a caller
 * and a callee with the starter and {@code degradation.priority.enabled=true}, and a plain
 * downstream the callee calls. Under the callee's overload, its calls from the caller's
 * best-effort route are refused first while those from the caller's core route are admitted, as
 * the callee counts them; a header that claims more than the callee's route declares changes
 * nothing; a chain passes the lowered priority on; and a callee with the property off neither
 * honours nor sends it.
 */
class PriorityPassingIntegrationTests {

	private static final String HEADER = "X-Degradation-Priority";

	/** How long the callee's work takes: four places of admission make about 40 answers a second. */
	static final long WORK_MILLIS = 100;

	/** The callee's limit, and the ceiling of its one tier's partition (rank 0 of 1). */
	private static final int LIMIT = 4;

	private static final int BEST_EFFORT_CEILING = 2;

	private static final int CORE_CLIENTS = 4;

	private static final int BEST_EFFORT_CLIENTS = 6;

	private static final int REQUESTS_PER_CLIENT = 30;

	private static LoopbackDependency downstream;

	private static ConfigurableApplicationContext callee;

	private static ConfigurableApplicationContext calleeOff;

	private static ConfigurableApplicationContext caller;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@BeforeAll
	static void startServices() {
		downstream = LoopbackDependency.start().answer(Answer.status(204));
		String downstreamUrl = downstream.url();
		callee = start(Callee.class, "priority-callee.yaml", true, "--downstream.url=" + downstreamUrl);
		calleeOff = start(Callee.class, "priority-callee.yaml", false, "--downstream.url=" + downstreamUrl);
		caller = start(Caller.class, "priority-caller.yaml", true, "--callee.url=" + url(callee));
	}

	private static ConfigurableApplicationContext start(Class<?> application, String manifest, boolean priority,
			String url) {
		return new SpringApplicationBuilder(application).run("--server.port=0", "--server.address=127.0.0.1",
				"--degradation.manifest=classpath:manifests/" + manifest, "--degradation.probes.enabled=false",
				"--degradation.priority.enabled=" + priority, url);
	}

	@AfterAll
	static void stopServices() {
		for (ConfigurableApplicationContext context : new ConfigurableApplicationContext[] { caller, callee,
				calleeOff }) {
			if (context != null) {
				context.close();
			}
		}
		if (downstream != null) {
			downstream.close();
		}
	}

	/** The priority header of each request the downstream received, {@code "null"} where it had none. */
	private static List<String> heardDownstream() {
		return downstream.received().stream().map((request) -> String.valueOf(request.header(HEADER))).toList();
	}

	@Test
	void underTheCalleesOverloadTheCallsOfTheCallersBestEffortRouteAreRefusedFirstAndThoseOfItsCoreRouteAdmitted()
			throws Exception {
		Callee.Handlers handlers = callee.getBean(Callee.Handlers.class);
		Admission admission = admission(callee);
		await().atMost(Duration.ofSeconds(10)).until(() -> admission.inflight() == 0);
		handlers.work.clear();
		long refusedBefore = admission.refused();
		long shedBefore = admission.shed();
		Map<String, LongAdder> answers = new ConcurrentHashMap<>();
		ExecutorService clients = Executors.newFixedThreadPool(CORE_CLIENTS + BEST_EFFORT_CLIENTS);
		List<Future<?>> running = new ArrayList<>();
		try {
			for (int i = 0; i < CORE_CLIENTS; i++) {
				running.add(clients.submit(() -> callRepeatedly(caller, "/api/core", answers)));
			}
			// The core calls alone fill the callee to the best-effort partition's ceiling.
			await().atMost(Duration.ofSeconds(30)).until(() -> admission.inflight() >= BEST_EFFORT_CEILING);
			for (int i = 0; i < BEST_EFFORT_CLIENTS; i++) {
				running.add(clients.submit(() -> callRepeatedly(caller, "/api/best-effort", answers)));
			}
			for (Future<?> client : running) {
				client.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			clients.shutdownNow();
		}
		long coreSent = CORE_CLIENTS * REQUESTS_PER_CLIENT;
		long bestEffortSent = BEST_EFFORT_CLIENTS * REQUESTS_PER_CLIENT;
		long coreServed = count(handlers.work, "core");
		long bestEffortServed = count(handlers.work, "1");
		long refused = admission.refused() - refusedBefore;
		long coreRefused = coreSent - coreServed;
		long bestEffortRefused = bestEffortSent - bestEffortServed;
		String report = "callee served " + handlers.work + ", refused best-effort " + bestEffortRefused
				+ ", refused core " + coreRefused + "; caller answers " + answers;
		// The callee accounts for every call it did not serve as refused (a 503, the route being core),
		// and tells by the priority the caller passed which calls it served: the core's, and those
		// best-effort calls that came while fewer requests than their share were in flight (which
		// may be none).
		assertThat(handlers.work.keySet()).as(report).contains("core").isSubsetOf("core", "1");
		assertThat(refused).as(report).isEqualTo(coreRefused + bestEffortRefused);
		assertThat(admission.shed() - shedBefore).as("fallbacks: none, the callee's route is core").isZero();
		assertThat(count(answers, "/api/best-effort live")).isEqualTo(bestEffortServed);
		assertThat(count(answers, "/api/best-effort refused 503")).isEqualTo(bestEffortRefused);
		assertThat(count(answers, "/api/core live")).isEqualTo(coreServed);
		// Best-effort calls are refused first: most of them, while the core is admitted.
		assertThat(bestEffortRefused).as("best-effort calls refused: %s", report)
			.isGreaterThanOrEqualTo(bestEffortSent / 2);
		assertThat(coreRefused).as("core calls refused: %s", report).isLessThanOrEqualTo(coreSent / 20);
		assertThat((double) bestEffortServed / bestEffortSent).as(report)
			.isLessThan((double) coreServed / coreSent);
		await().atMost(Duration.ofSeconds(10)).until(() -> admission.inflight() == 0);
	}

	@Test
	void aHeaderThatClaimsMoreThanTheCalleesRouteDeclaresChangesNothingWhileALowerOneIsHonoured()
			throws Exception {
		Callee.Handlers handlers = callee.getBean(Callee.Handlers.class);
		HeldPlaces held = holdPlaces(callee, BEST_EFFORT_CEILING);
		try {
			long extraBefore = handlers.extra.sum();
			// At the best-effort partition's ceiling a best-effort route is shed, however it is called.
			for (String claim : new String[] { null, "core", "core ", "1000", "2147483647", "99999999999999999999",
					"garbage", "" }) {
				HttpResponse<String> answer = get(callee, "/api/extra", claim);
				assertThat(answer.statusCode()).as("claim %s", claim).isEqualTo(200);
				assertThat(answer.headers().firstValue("X-Degraded")).as("claim %s", claim).hasValue("true");
				assertThat(answer.headers().firstValue("X-Degradation-Reason")).hasValue(OverloadSignal.CAUSE);
			}
			assertThat(handlers.extra.sum()).as("best-effort requests the callee served").isEqualTo(extraBefore);
			// At the same point a core route is admitted, unless its caller passed a lower priority.
			for (String claim : new String[] { null, "core", "garbage", "99999999999999999999" }) {
				assertThat(get(callee, "/api/work", claim).body()).as("claim %s", claim).isEqualTo("live");
			}
			// A tier priority, however high, is below core: it ranks as the callee's highest tier at
			// or below it, here its only one.
			for (String claim : new String[] { "1", "0", "-5", "5000" }) {
				HttpResponse<String> answer = get(callee, "/api/work", claim);
				assertThat(answer.statusCode()).as("claim %s", claim).isEqualTo(503);
				assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
			}
		}
		finally {
			held.release();
		}
	}

	@Test
	void aChainPassesTheLoweredPriorityOnAndCallsElsewhereCarryNone() throws Exception {
		downstream.forget();
		assertThat(get(caller, "/api/best-effort?to=/api/relay", null).body()).isEqualTo("relayed");
		assertThat(get(caller, "/api/core?to=/api/relay", null).body()).isEqualTo("relayed");
		assertThat(get(callee, "/api/relay", "garbage").body()).isEqualTo("relayed");
		assertThat(get(callee, "/api/relay", "-7").body()).isEqualTo("relayed");
		// The downstream is no dependency of the caller: its call is not guarded, and carries nothing.
		String elsewhere = URLEncoder.encode(downstream.url() + "/elsewhere",
				StandardCharsets.UTF_8);
		assertThat(get(caller, "/api/core?to=" + elsewhere, "1").body()).isEqualTo("relayed");
		// Below every tier is the lowest priority there is, passed on as such.
		assertThat(heardDownstream()).containsExactly("1", "core", "core", "0", "null");
	}

	@Test
	void noPriorityACallerSendsTravelsHigherThanTheRoutesTier() throws Exception {
		String[] edges = { "-2147483648", "2147483647", "-1", "0", "-9223372036854775808", "9223372036854775807",
				"-2147483649", "2147483648", "99999999999999999999", "+1", " -2147483648 ", "core", "garbage", "" };
		for (String claim : edges) {
			downstream.forget();
			assertThat(get(caller, "/api/best-effort?to=/api/relay", claim).body()).as("claim %s", claim)
				.isEqualTo("relayed");
			// The caller's best-effort call reached the callee, which passed its priority on.
			assertThat(heardDownstream()).as("claim %s", claim).hasSize(1);
			String heard = heardDownstream().get(0);
			assertThat(heard).as("claim %s: a priority travels", claim).isNotEqualTo("null").isNotEqualTo("core");
			assertThat(PassedPriority.read(heard)).as("claim %s", claim).isBetween(PassedPriority.LOWEST, 1);
		}
	}

	@Test
	void withThePropertyOffThePriorityIsNeitherHonouredNorSent() throws Exception {
		HeldPlaces held = holdPlaces(calleeOff, BEST_EFFORT_CEILING);
		try {
			assertThat(get(calleeOff, "/api/work", "1").body()).as("a lower priority, not honoured").isEqualTo("live");
			assertThat(get(calleeOff, "/api/extra", null).headers().firstValue("X-Degraded")).hasValue("true");
		}
		finally {
			held.release();
		}
		downstream.forget();
		assertThat(get(calleeOff, "/api/relay", "1").body()).isEqualTo("relayed");
		assertThat(heardDownstream()).containsExactly("null");
	}

	/**
	 * Hold places of a callee's admission with core requests that wait until released.
	 */
	private HeldPlaces holdPlaces(ConfigurableApplicationContext service, int places) {
		Callee.Handlers handlers = service.getBean(Callee.Handlers.class);
		Admission admission = admission(service);
		await().atMost(Duration.ofSeconds(10)).until(() -> admission.inflight() == 0);
		CountDownLatch release = new CountDownLatch(1);
		handlers.release = release;
		List<CompletableFuture<HttpResponse<String>>> holding = new ArrayList<>();
		for (int i = 0; i < places; i++) {
			holding.add(this.http.sendAsync(request(service, "/api/work?hold=true", null),
					HttpResponse.BodyHandlers.ofString()));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> admission.inflight() == places);
		return () -> {
			release.countDown();
			for (CompletableFuture<HttpResponse<String>> held : holding) {
				assertThat(held.get(10, TimeUnit.SECONDS).body()).isEqualTo("live");
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> admission.inflight() == 0);
		};
	}

	private Void callRepeatedly(ConfigurableApplicationContext service, String path, Map<String, LongAdder> answers)
			throws Exception {
		for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
			String body = get(service, path, null).body();
			answers.computeIfAbsent(path + " " + body, (key) -> new LongAdder()).increment();
		}
		return null;
	}

	private HttpResponse<String> get(ConfigurableApplicationContext service, String path, String priority)
			throws IOException, InterruptedException {
		return this.http.send(request(service, path, priority), HttpResponse.BodyHandlers.ofString());
	}

	private static HttpRequest request(ConfigurableApplicationContext service, String path, String priority) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(service) + path))
			.timeout(Duration.ofSeconds(30));
		if (priority != null) {
			request.header(HEADER, priority);
		}
		return request.build();
	}

	private static Admission admission(ConfigurableApplicationContext service) {
		Admission admission = service.getBean(OverloadSignal.class).admission();
		assertThat(admission).isNotNull();
		assertThat(admission.limit()).isEqualTo(LIMIT);
		return admission;
	}

	private static String url(ConfigurableApplicationContext service) {
		return "http://127.0.0.1:" + service.getEnvironment().getRequiredProperty("local.server.port");
	}

	private static long count(Map<String, LongAdder> counts, String key) {
		LongAdder adder = counts.get(key);
		return (adder != null) ? adder.sum() : 0;
	}

	/**
	 * Places of admission held until released.
	 */
	@FunctionalInterface
	private interface HeldPlaces {

		void release() throws Exception;

	}

	/**
	 * The called service: {@code /api/work} (core) takes WORK_MILLIS, or waits until the
	 * test releases it, and counts its requests by the priority they carry; {@code /api/extra}
	 * is best-effort; {@code /api/relay} (core) calls the downstream, a guarded dependency.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	@Import(Callee.Handlers.class)
	static class Callee {

		@RestController
		static class Handlers {

			final Map<String, LongAdder> work = new ConcurrentHashMap<>();

			final LongAdder extra = new LongAdder();

			volatile CountDownLatch release = new CountDownLatch(0);

			private final RestClient downstream;

			Handlers(RestClient.Builder builder, Environment environment) {
				this.downstream = builder.baseUrl(environment.getRequiredProperty("downstream.url")).build();
			}

			@GetMapping("/api/work")
			String work(@RequestHeader(name = HEADER, required = false) String priority,
					@RequestParam(defaultValue = "false") boolean hold) throws InterruptedException {
				if (hold) {
					this.release.await(30, TimeUnit.SECONDS);
					return "live";
				}
				this.work.computeIfAbsent(String.valueOf(priority), (key) -> new LongAdder()).increment();
				TimeUnit.MILLISECONDS.sleep(WORK_MILLIS);
				return "live";
			}

			@GetMapping("/api/extra")
			String extra() throws InterruptedException {
				this.extra.increment();
				TimeUnit.MILLISECONDS.sleep(WORK_MILLIS);
				return "live";
			}

			@GetMapping("/api/relay")
			String relay() {
				this.downstream.get().uri("/relayed").retrieve().toBodilessEntity();
				return "relayed";
			}

		}

	}

	/**
	 * The calling service: {@code /api/best-effort} (its best-effort tier) and {@code /api/core}
	 * (not in its manifest) call a path of the callee, or another URL, through a Boot-built
	 * {@code RestClient}, and answer what became of the call.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	@Import(Caller.Routes.class)
	static class Caller {

		/** More connections to the callee than the test's clients, so that the callee sees them all. */
		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> connections() {
			return (builder) -> builder.withConnectionManagerCustomizer(
					(manager) -> manager.setMaxConnPerRoute(64).setMaxConnTotal(64));
		}

		@RestController
		static class Routes {

			private final RestClient callee;

			Routes(RestClient.Builder builder, Environment environment) {
				this.callee = builder.baseUrl(environment.getRequiredProperty("callee.url")).build();
			}

			@GetMapping("/api/best-effort")
			String bestEffort(@RequestParam(defaultValue = "/api/work") String to) {
				return call(to);
			}

			@GetMapping("/api/core")
			String core(@RequestParam(defaultValue = "/api/work") String to) {
				return call(to);
			}

			private String call(String to) {
				try {
					String body = this.callee.get().uri(to).retrieve().body(String.class);
					return (body != null) ? body : "relayed";
				}
				catch (RestClientResponseException ex) {
					return "refused " + ex.getStatusCode().value();
				}
			}

		}

	}

}

package dev.degradation.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.sample.embedded.EmbeddedDependencies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The status page ({@code /actuator/degradation/ui}) in a real browser: Debian's Chromium,
 * headless, driven by Selenium through Debian's ChromeDriver, both started by the test. A
 * dependency of the shop fails and the page shows it failed, with the routes it sheds, within one
 * refresh of the endpoint saying so; it recovers and the page says so. The browser resolves no
 * name but the loopback's, and the page loads nothing but from the shop.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "sample.health-check-interval-ms=200", "sample.timeout-ms=1000",
				"sample.window-seconds=6", "sample.min-samples=3", "sample.hysteresis-seconds=2",
				"degradation.ui.refresh-interval=" + StatusPageBrowserIT.REFRESH_MS + "ms",
				// Selenium warns that it has no DevTools binding for this Chromium: none is used.
				"logging.level.org.openqa.selenium=error" })
class StatusPageBrowserIT {

	static final long REFRESH_MS = 1000;

	/**
	 * "Within one refresh": the refresh in flight when the endpoint changed may still draw the
	 * old state; the one after it must draw the new one. Counted in the page's refreshes, not in
	 * seconds, so that a loaded machine cannot make the test pass or fail by its speed alone.
	 */
	private static final int ONE_REFRESH = 2;

	/** A bound on the wait, however slow the machine. */
	private static final Duration WITHIN = Duration.ofSeconds(30);

	private static final String DEPENDENCY = "recommendations-api";

	private static final String ROUTE = "GET /api/recommendations";

	@LocalServerPort
	int port;

	@Autowired
	EmbeddedDependencies dependencies;

	@TempDir
	Path profile;

	private WebDriver browser;

	@AfterEach
	void stop() {
		if (this.browser != null) {
			this.browser.quit();
		}
		this.dependencies.healAll();
	}

	@Test
	void aFailedDependencyAndItsShedRoutesShowWithinOneRefreshAndSoDoesItsRecovery() {
		this.browser = startChromium();
		ShopClient shop = new ShopClient(this.port);
		String origin = "http://127.0.0.1:" + this.port;
		this.browser.get(origin + "/actuator/degradation/ui");
		await("the page live, every dependency healthy").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> "live".equals(attribute("#connection", "data-connection"))
					&& text("#headline").contains("Serving everything"));
		assertThat(attribute(dependencyRow(), "data-state")).isEqualTo("HEALTHY");
		assertThat(attribute(routeRow(), "data-shed")).isEqualTo("false");

		shop.switchDependency(DEPENDENCY, "failing");
		await("the endpoint to say the dependency failed").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> failedAndShed(shop.degradation()));
		int refreshesBefore = watchFor("FAILED", "true");
		assertThat(await("the page to show it").atMost(WITHIN).pollInterval(Duration.ofMillis(100))
			.until(this::refreshThatShowedIt, (refresh) -> refresh != null))
			.as("the refresh that showed it, counted from the one drawing when the endpoint said so")
			.isLessThanOrEqualTo(refreshesBefore + ONE_REFRESH);
		assertThat(text(dependencyRow())).contains(DEPENDENCY, "FAILED", ROUTE);
		assertThat(text(routeRow())).contains("shed", "dependency:" + DEPENDENCY, "static");
		assertThat(text("#headline")).contains("shed", "failed: ").contains(DEPENDENCY);
		assertThat(attribute("#summary", "data-degraded")).isEqualTo("true");

		shop.switchDependency(DEPENDENCY, "healthy");
		await("the endpoint to say it recovered").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> recovered(shop.degradation()));
		refreshesBefore = watchFor("HEALTHY", "false");
		assertThat(await("the page to show the recovery").atMost(WITHIN).pollInterval(Duration.ofMillis(100))
			.until(this::refreshThatShowedIt, (refresh) -> refresh != null))
			.as("the refresh that showed the recovery, counted from the one drawing when the endpoint said so")
			.isLessThanOrEqualTo(refreshesBefore + ONE_REFRESH);
		// Only this dependency was broken; on a loaded machine another may have missed a probe,
		// so the headline is asserted about this one.
		assertThat(text("#headline")).doesNotContain(DEPENDENCY);
		assertThat(text(dependencyRow())).contains("HEALTHY").doesNotContain(ROUTE);
		assertThat(text(routeRow())).contains("served");

		@SuppressWarnings("unchecked")
		List<String> loaded = (List<String>) ((JavascriptExecutor) this.browser).executeScript(
				"return [location.href].concat(performance.getEntriesByType('resource').map(function (e) { return e.name; }));");
		assertThat(loaded).hasSizeGreaterThan(3).allSatisfy((url) -> assertThat(url).startsWith(origin + "/actuator/"));
	}

	/**
	 * Watch the page, from now on, for the first refresh that draws the dependency in
	 * {@code state} and its route with {@code data-shed} {@code shed}.
	 * @return the number of the refresh drawing now; one in flight may still draw the old state,
	 * the next must draw the new one
	 */
	private int watchFor(String state, String shed) {
		Object refreshes = ((JavascriptExecutor) this.browser).executeScript("""
				window.refreshThatShowedIt = null;
				var shows = function () {
				  var row = document.querySelector(arguments[0]);
				  var route = document.querySelector(arguments[1]);
				  return row && route && row.getAttribute('data-state') === arguments[2]
				    && route.getAttribute('data-shed') === arguments[3];
				};
				var args = arguments;
				new MutationObserver(function (changes, observer) {
				  if (shows.apply(null, args)) {
				    window.refreshThatShowedIt = parseInt(document.body.getAttribute('data-refreshes'), 10);
				    observer.disconnect();
				  }
				}).observe(document.body, { subtree: true, childList: true, attributes: true });
				return parseInt(document.body.getAttribute('data-refreshes'), 10);
				""", dependencyRow(), routeRow(), state, shed);
		return ((Number) refreshes).intValue();
	}

	private Integer refreshThatShowedIt() {
		Object refresh = ((JavascriptExecutor) this.browser).executeScript("return window.refreshThatShowedIt;");
		return (refresh != null) ? ((Number) refresh).intValue() : null;
	}

	private static boolean recovered(JsonNode degradation) {
		return "HEALTHY".equals(degradation.path("dependencies").path(DEPENDENCY).path("state").asString())
				&& !shed(degradation);
	}

	private static boolean failedAndShed(JsonNode degradation) {
		return "FAILED".equals(degradation.path("dependencies").path(DEPENDENCY).path("state").asString())
				&& shed(degradation);
	}

	private static boolean shed(JsonNode degradation) {
		for (JsonNode tier : degradation.path("tiers")) {
			for (JsonNode route : tier.path("routes")) {
				if ("/api/recommendations".equals(route.path("path").asString())) {
					return route.path("shed").asBoolean();
				}
			}
		}
		throw new AssertionError("No route /api/recommendations in " + degradation);
	}

	private WebDriver startChromium() {
		Path chromium = OperatorTool.require("chromium", "chromium");
		Path chromedriver = OperatorTool.require("chromedriver", "chromium-driver");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(chromium.toFile());
		// Headless as root in a container; no background traffic of the browser's own (updates,
		// sync, metrics); and any host name but the loopback's resolves to nothing, so nothing
		// the page or the browser asks for can leave the machine.
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-default-apps", "--disable-extensions", "--disable-quic", "--no-first-run",
				"--no-default-browser-check", "--metrics-recording-only", "--window-size=1400,1600",
				"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--user-data-dir=" + this.profile);
		return new ChromeDriver(service, options);
	}

	private String dependencyRow() {
		return "tr[data-dependency='" + DEPENDENCY + "']";
	}

	private String routeRow() {
		return "tr[data-route='" + ROUTE + "']";
	}

	// Read in one script, so that a refresh that redraws the table between finding an element and
	// reading it cannot fail the read.
	private String attribute(String css, String name) {
		return (String) ((JavascriptExecutor) this.browser).executeScript(
				"var e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;", css,
				name);
	}

	private String text(String css) {
		return (String) ((JavascriptExecutor) this.browser).executeScript(
				"var e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css);
	}

}

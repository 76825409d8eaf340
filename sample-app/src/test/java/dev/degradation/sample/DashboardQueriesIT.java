package dev.degradation.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.sample.embedded.EmbeddedDependencies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Grafana dashboard ({@code docs/grafana/degradation-dashboard.json}) against the real thing:
 * a real Prometheus (Debian's package) scrapes the sample shop every second and evaluates the
 * recording rules of {@code docs/prometheus/degradation-rules.yml}, while the shop takes a small
 * bounded load with {@code recommendations-api} failing and an operator's override set. Every
 * panel's query, and every template variable's, must be valid PromQL and return at least one
 * series; the rules must all load and evaluate without error; and the failed dependency must show
 * where an operator looks for it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "sample.health-check-interval-ms=200", "sample.timeout-ms=1000",
				"sample.window-seconds=6", "sample.min-samples=3", "sample.hysteresis-seconds=2" })
class DashboardQueriesIT {

	private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.+),\\s*(\\w+)\\)");

	private static final String FAILED = "recommendations-api";

	@LocalServerPort
	int port;

	@Autowired
	EmbeddedDependencies dependencies;

	@TempDir
	Path folder;

	@AfterEach
	void heal() {
		this.dependencies.healAll();
	}

	@Test
	void everyPanelsQueryReturnsSeriesFromARealPrometheusScrapingTheShop() throws Exception {
		Path prometheusProgram = OperatorTool.require("prometheus", "prometheus");
		Path docs = OperatorTool.docs();
		Map<String, String> queries = dashboardQueries(docs.resolve("grafana/degradation-dashboard.json"));
		assertThat(queries).hasSizeGreaterThanOrEqualTo(15);
		ShopClient shop = new ShopClient(this.port);
		shop.switchDependency(FAILED, "failing");
		// An override that changes nothing the shop serves (the tier is on already), so that the
		// overrides panels have one to show.
		assertThat(shop.post("/actuator/degradation/switches/enhanced", "{\"state\": \"on\", \"ttl\": \"10m\"}")
			.statusCode()).isEqualTo(200);
		try (LocalPrometheus prometheus = LocalPrometheus.start(prometheusProgram, this.port,
				docs.resolve("prometheus/degradation-rules.yml"), this.folder);
				ShopLoad load = ShopLoad.start(shop, 20, 3000, Duration.ofSeconds(150))) {
			await("the shop scraped").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> values(prometheus, "up{job=\"" + LocalPrometheus.JOB + "\"} == 1").size() == 1);
			Map<String, String> empty = new LinkedHashMap<>(queries);
			await("every panel's query to return series; still empty: " + empty.keySet()).atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> {
					empty.entrySet().removeIf((query) -> !values(prometheus, query.getValue()).isEmpty());
					return empty.isEmpty();
				});
			await("the failed dependency on the dashboard").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> !values(prometheus, "job_dependency:degradation_dependency_failed:sum{dependency=\""
						+ FAILED + "\"} == 1").isEmpty()
						&& !values(prometheus, "job_tier_cause:degradation_fallbacks:rate1m{tier=\"enhanced\","
								+ " cause=\"dependency\"} > 0").isEmpty()
						&& !values(prometheus, "sum(degradation_overrides{kind=\"switch\"}) == 1").isEmpty());
			assertThat(load.sent()).as("requests sent").isPositive();
			for (JsonNode group : prometheus.rules()) {
				for (JsonNode rule : group.path("rules")) {
					assertThat(rule.path("health").asString()).as(rule.path("name").asString() + ": "
							+ rule.path("lastError").asString()).isEqualTo("ok");
				}
			}
		}
	}

	/**
	 * Evaluate a query; an invalid one fails the test at once with Prometheus's error.
	 */
	private static List<JsonNode> values(LocalPrometheus prometheus, String promql) {
		JsonNode answer = prometheus.query(promql);
		assertThat(answer.path("status").asString()).as("%s: %s", promql, answer.path("error").asString())
			.isEqualTo("success");
		List<JsonNode> series = new ArrayList<>();
		answer.path("data").path("result").forEach(series::add);
		return series;
	}

	/**
	 * Every panel's target and every template variable, by title, as PromQL with Grafana's
	 * variables given the values a user sees with everything selected.
	 */
	private static Map<String, String> dashboardQueries(Path dashboard) throws Exception {
		JsonNode root = JsonMapper.builder().build().readTree(Files.readString(dashboard));
		Map<String, String> queries = new LinkedHashMap<>();
		List<JsonNode> panels = new ArrayList<>();
		root.path("panels").forEach((panel) -> {
			panels.add(panel);
			panel.path("panels").forEach(panels::add);
		});
		for (JsonNode panel : panels) {
			for (JsonNode target : panel.path("targets")) {
				queries.put("panel '" + panel.path("title").asString() + "' " + target.path("refId").asString(),
						promql(target.path("expr").asString()));
			}
		}
		for (JsonNode variable : root.path("templating").path("list")) {
			if ("query".equals(variable.path("type").asString())) {
				Matcher labelValues = LABEL_VALUES.matcher(variable.path("definition").asString());
				assertThat(labelValues.matches()).as(variable.path("definition").asString()).isTrue();
				queries.put("variable '" + variable.path("name").asString() + "'",
						"count by (" + labelValues.group(2) + ") (" + promql(labelValues.group(1)) + ")");
			}
		}
		return queries;
	}

	private static String promql(String expression) {
		assertThat(expression).as("a panel's query").isNotBlank();
		return expression.replace("$__rate_interval", "1m")
			.replace("$job", LocalPrometheus.JOB)
			.replace("$instance", ".+");
	}

}

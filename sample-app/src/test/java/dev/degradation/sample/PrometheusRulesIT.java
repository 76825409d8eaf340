package dev.degradation.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Prometheus rules that users copy ({@code docs/prometheus/degradation-rules.yml}), checked
 * and unit-tested by Debian's {@code promtool}: every alert firing and not firing, with the summary
 * and description the on-call reads ({@code degradation-rules.test.yml} beside it). That every
 * rule also loads and evaluates on a real Prometheus scraping the shop is
 * {@link DashboardQueriesIT}'s.
 */
class PrometheusRulesIT {

	@Test
	void theRulesAreValid() throws Exception {
		Path promtool = OperatorTool.require("promtool", "prometheus");
		Path rules = OperatorTool.docs().resolve("prometheus");
		String output = run(promtool, rules, "check", "rules", "degradation-rules.yml");
		assertThat(output).contains("SUCCESS");
	}

	@Test
	void everyAlertFiresWhenItShouldAndOnlyThen() throws Exception {
		Path promtool = OperatorTool.require("promtool", "prometheus");
		Path rules = OperatorTool.docs().resolve("prometheus");
		String output = run(promtool, rules, "test", "rules", "degradation-rules.test.yml");
		assertThat(output).contains("SUCCESS").doesNotContain("FAILED");
	}

	@Test
	void everyAlertHasACaseFiringAndACaseNotFiring() throws Exception {
		Path rules = OperatorTool.docs().resolve("prometheus");
		Matcher alerts = Pattern.compile("(?m)^\\s*- alert: (\\w+)$")
			.matcher(Files.readString(rules.resolve("degradation-rules.yml")));
		String tests = Files.readString(rules.resolve("degradation-rules.test.yml"));
		int count = 0;
		while (alerts.find()) {
			count++;
			String alert = alerts.group(1);
			Matcher cases = Pattern.compile("alertname: " + alert + "\\n\\s+exp_alerts:(.*)").matcher(tests);
			boolean firing = false;
			boolean quiet = false;
			while (cases.find()) {
				quiet |= cases.group(1).trim().equals("[]");
				firing |= cases.group(1).trim().isEmpty();
			}
			assertThat(firing).as(alert + " has a case where it fires").isTrue();
			assertThat(quiet).as(alert + " has a case where it does not fire").isTrue();
		}
		assertThat(count).as("alerts").isGreaterThanOrEqualTo(5);
	}

	private static String run(Path promtool, Path folder, String... arguments) throws IOException, InterruptedException {
		String[] command = new String[arguments.length + 1];
		command[0] = promtool.toString();
		System.arraycopy(arguments, 0, command, 1, arguments.length);
		Process process = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		return output;
	}

}

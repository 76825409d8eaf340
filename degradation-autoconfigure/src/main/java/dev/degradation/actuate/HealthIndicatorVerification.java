package dev.degradation.actuate;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.registry.HealthContributorRegistry;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.ManifestProblem;
import dev.degradation.manifest.Suggestions;
import dev.degradation.manifest.VerificationMode;

/**
 * Checks, once every bean is ready, that each {@code health_indicator} of the manifest names a
 * health indicator of the application, as the route check does for routes and handlers: a name
 * that none has ({@code database} for Boot's {@code db}) would otherwise count as a failed probe
 * every time and shed the dependency's routes. Warned about with its position and the names that
 * exist, or, with {@code degradation.verify=strict}, refused at startup.
 */
public class HealthIndicatorVerification implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(HealthIndicatorVerification.class);

	private final DegradationManifest manifest;

	private final ObjectProvider<HealthContributorRegistry> registry;

	private final VerificationMode mode;

	/**
	 * Create a verification.
	 * @param manifest the manifest to check
	 * @param registry the application's health contributors
	 * @param mode what to do with a name that no health indicator has
	 */
	public HealthIndicatorVerification(DegradationManifest manifest, ObjectProvider<HealthContributorRegistry> registry,
			VerificationMode mode) {
		this.manifest = manifest;
		this.registry = registry;
		this.mode = mode;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (this.mode == VerificationMode.OFF) {
			return;
		}
		List<ManifestProblem> problems = problems(this.manifest, this.registry.getIfAvailable());
		if (problems.isEmpty()) {
			return;
		}
		InvalidManifestException exception = new InvalidManifestException(this.manifest.source(), problems);
		if (this.mode == VerificationMode.STRICT) {
			throw exception;
		}
		logger.warn(exception.getMessage() + "\n(each probe of such a dependency fails, so its routes will be shed; "
				+ "set 'degradation.verify=strict' to refuse to start instead)");
	}

	/**
	 * Return a problem for every {@code health_indicator} that names no health indicator.
	 * @param manifest the manifest
	 * @param contributors the application's health contributors, or {@code null} without
	 * Spring Boot's health
	 * @return the problems, located at their dependencies
	 */
	static List<ManifestProblem> problems(DegradationManifest manifest, @Nullable HealthContributors contributors) {
		List<ManifestProblem> problems = new ArrayList<>();
		for (Dependency dependency : manifest.dependencies()) {
			String name = dependency.healthIndicator();
			if (name == null) {
				continue;
			}
			String yamlPath = "dependencies." + dependency.name() + ".health_indicator";
			if (contributors == null) {
				problems.add(new ManifestProblem(manifest.source(), dependency.position(), yamlPath,
						"'" + name + "' cannot be looked up: the application has no health contributors "
								+ "(add spring-boot-starter-actuator, or judge the dependency by 'health_url')"));
				continue;
			}
			HealthContributor found = find(contributors, name);
			if (found instanceof HealthIndicator) {
				continue;
			}
			List<String> names = names(contributors, "");
			String message = (found != null) ? "'" + name + "' is a group of health contributors, not one indicator"
					: "no health contributor named '" + name + "'";
			String suggestion = Suggestions.closest(name, names);
			problems.add(new ManifestProblem(manifest.source(), dependency.position(), yamlPath,
					message + ((suggestion != null) ? "; did you mean '" + suggestion + "'?" : "")
							+ "; the application's health indicators are: " + String.join(", ", names)));
		}
		return problems;
	}

	private static @Nullable HealthContributor find(HealthContributors contributors, String name) {
		HealthContributors current = contributors;
		HealthContributor found = null;
		for (String part : name.split("/")) {
			if (current == null) {
				return null;
			}
			found = current.getContributor(part);
			current = (found instanceof CompositeHealthContributor composite) ? composite : null;
		}
		return found;
	}

	/**
	 * The names a {@code health_indicator} may take: every indicator, those inside a composite as
	 * {@code composite/member}.
	 */
	private static List<String> names(HealthContributors contributors, String prefix) {
		List<String> names = new ArrayList<>();
		contributors.stream().forEach((entry) -> {
			if (entry.contributor() instanceof CompositeHealthContributor composite) {
				names.addAll(names(composite, prefix + entry.name() + "/"));
			}
			else {
				names.add(prefix + entry.name());
			}
		});
		return names;
	}

}

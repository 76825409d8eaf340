package dev.degradation.manifest;

import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A loaded and validated degradation manifest: the dependencies a service has and the tiers of
 * routes it sheds, lowest priority first. Immutable; a manifest that reaches this type has passed
 * every validation rule.
 *
 * @param source the description of the file it was loaded from
 * @param defaults the settings that apply where a dependency sets none of its own
 * @param dependencies the declared dependencies, in the order of the file
 * @param tiers the tiers in shed order (ascending priority)
 * @param overload the admission of requests under load, or {@code null} when the manifest has no
 * {@code overload} section (every request is admitted)
 * @param pressure the pressure rules, which shed tiers on meters the application has; empty
 * without a {@code pressure} section
 */
public record DegradationManifest(String source, ManifestDefaults defaults, List<Dependency> dependencies,
		List<Tier> tiers, @Nullable Overload overload, List<PressureRule> pressure) {

	public DegradationManifest {
		dependencies = List.copyOf(dependencies);
		tiers = List.copyOf(tiers);
		pressure = List.copyOf(pressure);
	}

	/**
	 * Create a manifest without a {@code pressure} section.
	 * @param source the description of the file it was loaded from
	 * @param defaults the settings that apply where a dependency sets none of its own
	 * @param dependencies the declared dependencies, in the order of the file
	 * @param tiers the tiers in shed order (ascending priority)
	 * @param overload the admission of requests under load, or {@code null}
	 */
	public DegradationManifest(String source, ManifestDefaults defaults, List<Dependency> dependencies,
			List<Tier> tiers, @Nullable Overload overload) {
		this(source, defaults, dependencies, tiers, overload, List.of());
	}

	/**
	 * Create a manifest without an {@code overload} section.
	 * @param source the description of the file it was loaded from
	 * @param defaults the settings that apply where a dependency sets none of its own
	 * @param dependencies the declared dependencies, in the order of the file
	 * @param tiers the tiers in shed order (ascending priority)
	 */
	public DegradationManifest(String source, ManifestDefaults defaults, List<Dependency> dependencies,
			List<Tier> tiers) {
		this(source, defaults, dependencies, tiers, null);
	}

	/**
	 * Return every route of every tier, in shed order.
	 * @return the routes
	 */
	public List<Route> routes() {
		return this.tiers.stream().flatMap((tier) -> tier.routes().stream()).toList();
	}

	/**
	 * Return the highest tier priority, which is also the highest meaningful shed level.
	 * @return the highest priority, or 0 when the manifest has no tiers
	 */
	public int maxPriority() {
		return this.tiers.isEmpty() ? 0 : this.tiers.get(this.tiers.size() - 1).priority();
	}

	/**
	 * Return the tier with the given name.
	 * @param name the tier name
	 * @return the tier, if declared
	 */
	public Optional<Tier> tier(String name) {
		return this.tiers.stream().filter((tier) -> tier.name().equals(name)).findFirst();
	}

	/**
	 * Return the dependency with the given name.
	 * @param name the dependency name
	 * @return the dependency, if declared
	 */
	public Optional<Dependency> dependency(String name) {
		return this.dependencies.stream().filter((dependency) -> dependency.name().equals(name)).findFirst();
	}

}

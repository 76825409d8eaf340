package dev.degradation.manifest;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DefaultsReader.Defaults;
import dev.degradation.manifest.DependenciesReader.DeclaredDependency;
import dev.degradation.manifest.TiersReader.DeclaredTier;

import static dev.degradation.manifest.ManifestKeys.DEFAULTS;
import static dev.degradation.manifest.ManifestKeys.DEPENDENCIES;
import static dev.degradation.manifest.ManifestKeys.OVERLOAD;
import static dev.degradation.manifest.ManifestKeys.PRESSURE;
import static dev.degradation.manifest.ManifestKeys.TIERS;

/**
 * Turns a positioned YAML tree into a {@link DegradationManifest}: each section is read by its own
 * reader, then the {@link ManifestRules} that relate the sections are checked. Every problem is
 * recorded instead of stopping at the first.
 */
final class ManifestReader {

	private static final Set<String> ROOT_KEYS = Set.of(DEFAULTS, DEPENDENCIES, TIERS, OVERLOAD, PRESSURE);

	private final String source;

	private final Problems problems;

	private final ValueReader values;

	private final @Nullable String reservedBasePath;

	private final FallbackKindTable kinds;

	private final List<HealthSourceKey> sourceKeys;

	/**
	 * Create a reader for one manifest.
	 * @param placeholdersRequired whether a placeholder the resolver cannot resolve is a problem;
	 * when not, the value that holds it is left unchecked, for validating a manifest away from the
	 * environment that will resolve it
	 */
	ManifestReader(String source, Problems problems, UnaryOperator<String> placeholders,
			@Nullable String reservedBasePath, boolean placeholdersRequired, FallbackKindTable kinds,
			List<HealthSourceKey> sourceKeys) {
		this.kinds = kinds;
		this.sourceKeys = sourceKeys;
		this.source = source;
		this.problems = problems;
		this.values = new ValueReader(problems, placeholders, placeholdersRequired);
		this.reservedBasePath = (reservedBasePath != null && reservedBasePath.endsWith("/"))
				? reservedBasePath.substring(0, reservedBasePath.length() - 1) : reservedBasePath;
	}

	@Nullable DegradationManifest read(YamlNode root) {
		if (!(root instanceof YamlNode.Mapping mapping)) {
			this.problems.add(root.position(), "", "the manifest must be a mapping with the keys 'defaults', "
					+ "'dependencies' and 'tiers', but it is " + root.describe());
			return null;
		}
		this.values.checkKeys(mapping, "", ROOT_KEYS);
		Defaults defaults = new DefaultsReader(this.values).read(mapping);
		List<DeclaredDependency> dependencies = new DependenciesReader(this.values, this.sourceKeys).read(mapping,
				defaults.manifestDefaults().healthCheck(), defaults.calls());
		List<DeclaredTier> tiers = new TiersReader(this.values,
				new RouteReader(this.values, this.reservedBasePath, this.kinds))
			.read(mapping);
		Overload overload = new OverloadReader(this.values).read(mapping, defaults.manifestDefaults().hysteresis());
		List<PressureRule> pressure = new PressureReader(this.values).read(mapping, tiers);
		new ManifestRules(this.problems).check(defaults, dependencies, tiers);
		return new DegradationManifest(this.source, defaults.manifestDefaults(),
				dependencies.stream().map(DeclaredDependency::dependency).filter(Objects::nonNull).toList(),
				tiers.stream()
					.map(DeclaredTier::tier)
					.filter(Objects::nonNull)
					.sorted(Comparator.comparingInt(Tier::priority))
					.toList(),
				overload, pressure);
	}

}

package dev.degradation.manifest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.RouteReader.DeclaredRoute;

import static dev.degradation.manifest.ManifestKeys.PRIORITY;
import static dev.degradation.manifest.ManifestKeys.ROUTES;
import static dev.degradation.manifest.ManifestKeys.TIERS;

/**
 * Reads the {@code tiers} section: each tier's priority and its routes.
 */
final class TiersReader {

	private static final Set<String> KEYS = Set.of(PRIORITY, ROUTES);

	private final ValueReader values;

	private final RouteReader routes;

	TiersReader(ValueReader values, RouteReader routes) {
		this.values = values;
		this.routes = routes;
	}

	/**
	 * Read every tier, in the order of the file.
	 */
	List<DeclaredTier> read(YamlNode.Mapping root) {
		YamlNode.Entry tiersEntry = root.entries().get(TIERS);
		if (tiersEntry == null) {
			this.values.problems()
				.add(root.position(), TIERS,
						"missing 'tiers': the manifest must declare at least one tier of degradable routes");
			return List.of();
		}
		if (!(tiersEntry.value() instanceof YamlNode.Mapping tiers)) {
			this.values.problems()
				.add(tiersEntry.value().position(), TIERS,
						"'tiers' must be a mapping of tier names to tiers, but it is " + tiersEntry.value().describe());
			return List.of();
		}
		if (tiers.entries().isEmpty()) {
			this.values.problems().add(tiers.position(), TIERS, "'tiers' is empty; declare at least one tier");
		}
		List<DeclaredTier> result = new ArrayList<>();
		for (YamlNode.Entry entry : tiers.entries().values()) {
			String path = TIERS + "." + entry.key();
			this.values.checkName(entry, path, "tier");
			if (!(entry.value() instanceof YamlNode.Mapping tier)) {
				this.values.problems()
					.add(entry.value().position(), path, "a tier must be a mapping with '" + PRIORITY + "' and '"
							+ ROUTES + "', but it is " + entry.value().describe());
				continue;
			}
			this.values.checkKeys(tier, path, KEYS);
			Setting<Long> priority = this.values.requiredWholeNumber(tier, path, PRIORITY, 1, 1000,
					"the shed order of the tier, 1 or more; lower priorities are shed first");
			List<DeclaredRoute> routes = readRoutes(tier, entry.key(), path);
			Tier declared = (priority.value() != null) ? new Tier(entry.key(), priority.value().intValue(),
					routes.stream().map(DeclaredRoute::route).filter((route) -> route != null).toList(),
					entry.keyPosition()) : null;
			result.add(new DeclaredTier(entry, priority, routes, declared));
		}
		checkSwitchNames(result);
		return result;
	}

	/**
	 * Tier names and route names share one namespace, the operators' switches: a route name must
	 * be unique and must not be a tier's, or one switch would name two things.
	 */
	private void checkSwitchNames(List<DeclaredTier> tiers) {
		Set<String> tierNames = new HashSet<>();
		tiers.forEach((tier) -> tierNames.add(tier.entry().key()));
		Map<String, String> routeNames = new HashMap<>();
		for (DeclaredTier tier : tiers) {
			for (DeclaredRoute route : tier.routes()) {
				Setting<String> name = route.name();
				if (name.value() == null || name.entry() == null) {
					continue;
				}
				Position position = name.entry().value().position();
				if (tierNames.contains(name.value())) {
					this.values.problems()
						.add(position, name.path(), ProblemText.quote(name.value())
								+ " is also a tier's name; a route name must differ from every tier name, since "
								+ "both name switches");
				}
				else {
					String first = routeNames.putIfAbsent(name.value(), name.path());
					if (first != null) {
						this.values.problems()
							.add(position, name.path(), ProblemText.quote(name.value()) + " is already the name of "
									+ first + "; route names must be unique");
					}
				}
			}
		}
	}

	private List<DeclaredRoute> readRoutes(YamlNode.Mapping tier, String tierName, String tierPath) {
		String path = tierPath + "." + ROUTES;
		YamlNode.Entry entry = tier.entries().get(ROUTES);
		if (entry == null) {
			this.values.problems().add(tier.position(), path, "missing 'routes': a tier needs at least one route");
			return List.of();
		}
		if (!(entry.value() instanceof YamlNode.Sequence sequence)) {
			this.values.problems()
				.add(entry.value().position(), path,
						"'routes' must be a list of routes, but it is " + entry.value().describe());
			return List.of();
		}
		if (sequence.items().isEmpty()) {
			this.values.problems()
				.add(sequence.position(), path, "'routes' is empty; a tier needs at least one route");
		}
		List<DeclaredRoute> routes = new ArrayList<>();
		for (int i = 0; i < sequence.items().size(); i++) {
			routes.add(this.routes.read(sequence.items().get(i), tierName, path + "[" + i + "]"));
		}
		return routes;
	}

	/**
	 * One key of {@code tiers} that is a mapping, as read.
	 *
	 * @param entry the tier's name and mapping
	 * @param priority its priority
	 * @param routes its routes, also those with problems
	 * @param tier the tier with its usable routes, or {@code null} when it has no usable priority
	 */
	record DeclaredTier(YamlNode.Entry entry, Setting<Long> priority, List<DeclaredRoute> routes,
			@Nullable Tier tier) {

	}

}

package dev.degradation.manifest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.TiersReader.DeclaredTier;

import static dev.degradation.manifest.ManifestKeys.METER;
import static dev.degradation.manifest.ManifestKeys.PRESSURE;
import static dev.degradation.manifest.ManifestKeys.RESTORE_BELOW;
import static dev.degradation.manifest.ManifestKeys.SHEDS;
import static dev.degradation.manifest.ManifestKeys.SHED_ABOVE;
import static dev.degradation.manifest.ManifestKeys.TAGS;

/**
 * Reads the optional {@code pressure} section: a list of rules, each a meter, its tags, the value
 * above which it sheds a tier and the value below which it lets it go.
 */
final class PressureReader {

	private static final Set<String> KEYS = Set.of(METER, TAGS, SHED_ABOVE, RESTORE_BELOW, SHEDS);

	/** Micrometer's names: dot-separated words, as every registry accepts them. */
	private static final Pattern METER_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)*");

	/** The largest threshold written: larger than any count or size a meter reports. */
	private static final double MAX_THRESHOLD = 1e15;

	private final ValueReader values;

	PressureReader(ValueReader values) {
		this.values = values;
	}

	List<PressureRule> read(YamlNode.Mapping root, List<DeclaredTier> tiers) {
		YamlNode.Entry entry = root.entries().get(PRESSURE);
		if (entry == null || (entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull())) {
			return List.of();
		}
		if (!(entry.value() instanceof YamlNode.Sequence sequence)) {
			this.values.problems()
				.add(entry.value().position(), PRESSURE, "'" + PRESSURE + "' must be a list of rules, each with '"
						+ METER + "', '" + SHED_ABOVE + "', '" + RESTORE_BELOW + "' and '" + SHEDS + "', but it is "
						+ entry.value().describe());
			return List.of();
		}
		Map<String, Integer> priorities = new LinkedHashMap<>();
		for (DeclaredTier tier : tiers) {
			if (tier.tier() != null) {
				priorities.put(tier.tier().name(), tier.tier().priority());
			}
		}
		List<PressureRule> rules = new ArrayList<>();
		List<YamlNode> items = sequence.items();
		for (int i = 0; i < items.size(); i++) {
			PressureRule rule = readRule(items.get(i), PRESSURE + "[" + i + "]", priorities);
			if (rule != null) {
				rules.add(rule);
			}
		}
		return rules;
	}

	private @Nullable PressureRule readRule(YamlNode node, String path, Map<String, Integer> priorities) {
		if (!(node instanceof YamlNode.Mapping rule)) {
			this.values.problems()
				.add(node.position(), path, "a pressure rule must be a mapping with '" + METER + "', '" + SHED_ABOVE
						+ "', '" + RESTORE_BELOW + "' and '" + SHEDS + "', but it is " + node.describe());
			return null;
		}
		this.values.checkKeys(rule, path, KEYS);
		String meter = readMeter(rule, path);
		Map<String, String> tags = readTags(rule, path);
		Double shedAbove = this.values.requiredNumber(rule, path, SHED_ABOVE, -MAX_THRESHOLD, MAX_THRESHOLD,
				"the meter's value above which the rule sheds its tier");
		Double restoreBelow = this.values.requiredNumber(rule, path, RESTORE_BELOW, -MAX_THRESHOLD, MAX_THRESHOLD,
				"the meter's value below which the rule lets its tier go, below '" + SHED_ABOVE + "'");
		Integer priority = null;
		String tier = null;
		YamlNode.Entry sheds = rule.entries().get(SHEDS);
		if (sheds == null) {
			this.values.problems()
				.add(rule.position(), path + "." + SHEDS,
						"missing '" + SHEDS + "': the tier the rule sheds, with every tier of a lower priority");
		}
		else {
			tier = this.values.text(sheds.value(), path + "." + SHEDS);
			if (tier != null) {
				priority = priorities.get(tier);
				if (priority == null) {
					this.values.problems()
						.add(sheds.value().position(), path + "." + SHEDS, "unknown tier " + ProblemText.quote(tier)
								+ Suggestions.hint(tier, priorities.keySet()) + " (tiers: "
								+ ValueReader.sorted(priorities.keySet()) + ")");
				}
			}
		}
		if (shedAbove != null && restoreBelow != null && !(restoreBelow < shedAbove)) {
			this.values.problems()
				.add(rule.entries().get(RESTORE_BELOW).value().position(), path + "." + RESTORE_BELOW,
						"'" + RESTORE_BELOW + "' (" + ProblemText.number(BigDecimal.valueOf(restoreBelow)) + ") must be below '"
								+ SHED_ABOVE + "' (" + ProblemText.number(BigDecimal.valueOf(shedAbove))
								+ "), so that a value that hovers at the threshold cannot make the tier flap");
			return null;
		}
		if (meter == null || tags == null || shedAbove == null || restoreBelow == null || priority == null) {
			return null;
		}
		return new PressureRule(meter, tags, shedAbove, restoreBelow, tier, priority, rule.position());
	}

	private @Nullable String readMeter(YamlNode.Mapping rule, String path) {
		YamlNode.Entry entry = rule.entries().get(METER);
		if (entry == null) {
			this.values.problems()
				.add(rule.position(), path + "." + METER, "missing '" + METER
						+ "': the name of a meter the application has, such as jvm.memory.usage.after.gc");
			return null;
		}
		String meter = this.values.text(entry.value(), path + "." + METER);
		if (meter != null && (meter.length() > 200 || !METER_NAME.matcher(meter).matches())) {
			this.values.problems()
				.add(entry.value().position(), path + "." + METER, ProblemText.quote(meter)
						+ " is not a meter name: dot-separated words of letters, digits, '_' and '-', such as "
						+ "hikaricp.connections.pending");
			return null;
		}
		return meter;
	}

	private @Nullable Map<String, String> readTags(YamlNode.Mapping rule, String path) {
		YamlNode.Mapping tags = this.values.optionalMapping(rule, TAGS, path + "." + TAGS);
		if (tags == null) {
			return rule.entries().containsKey(TAGS) && !(rule.entries().get(TAGS).value() instanceof YamlNode.Scalar
					scalar && scalar.isNull()) ? null : Map.of();
		}
		Map<String, String> read = new LinkedHashMap<>();
		boolean usable = true;
		for (YamlNode.Entry tag : tags.entries().values()) {
			String value = this.values.text(tag.value(), path + "." + TAGS + "." + tag.key());
			if (value == null) {
				usable = false;
			}
			else {
				read.put(tag.key(), value);
			}
		}
		return usable ? read : null;
	}

}

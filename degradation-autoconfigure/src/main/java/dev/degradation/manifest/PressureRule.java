package dev.degradation.manifest;

import java.util.Map;
import java.util.TreeMap;

/**
 * One rule of the manifest's {@code pressure} section: a meter the application already has (heap
 * after collection, time spent collecting, a pool's queued callers), the value above which it
 * sheds a tier, with every lower one, and the value below which it lets them go.
 *
 * @param meter the Micrometer meter's name, such as {@code jvm.memory.usage.after.gc}
 * @param tags the tags a meter must have to be read, empty for any; when several meters match,
 * the highest value counts
 * @param shedAbove the value above which the rule sheds ({@code shed_above})
 * @param restoreBelow the value below which it lets go ({@code restore_below}); below
 * {@code shedAbove}, so that a value that hovers at the threshold cannot make the tier flap
 * @param tier the name of the highest tier it sheds ({@code sheds})
 * @param priority that tier's priority: the shed level the rule demands
 * @param position where the rule is written, for problems found once the application runs (a
 * meter it does not have)
 */
public record PressureRule(String meter, Map<String, String> tags, double shedAbove, double restoreBelow,
		String tier, int priority, Position position) {

	public PressureRule {
		tags = Map.copyOf(tags);
		if (!(restoreBelow < shedAbove)) {
			throw new IllegalArgumentException("restore_below (" + restoreBelow + ") must be below shed_above ("
					+ shedAbove + ")");
		}
	}

	/**
	 * Return the cause this rule gives the routes it sheds, as in {@code X-Degradation-Reason}.
	 * @return {@code pressure:} and the meter's name
	 */
	public String cause() {
		return "pressure:" + this.meter;
	}

	/**
	 * Return the meter and its tags as an operator reads them.
	 * @return such as {@code jvm.memory.usage.after.gc{area=heap, pool=long-lived}}
	 */
	public String describeMeter() {
		return this.tags.isEmpty() ? this.meter : this.meter + new TreeMap<>(this.tags);
	}

}

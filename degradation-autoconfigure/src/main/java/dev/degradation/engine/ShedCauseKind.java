package dev.degradation.engine;

import java.util.Locale;

/**
 * The kind of a shed cause, from the text before its first {@code ':'}: a short, fixed list, so
 * that counts and metric tags stay bounded whatever the causes say in detail.
 */
public enum ShedCauseKind {

	/** Shed by the level: simulation, or failed dependencies with {@code failed_dependency_sheds: tiers}. */
	LEVEL,

	/** Shed because a dependency the route requires failed ({@code dependency:<name>}). */
	DEPENDENCY,

	/** Switched off by an operator ({@code switch:<name>}). */
	SWITCH,

	/** Shed to keep the service within its capacity ({@code overload}). */
	OVERLOAD;

	private static final ShedCauseKind[] VALUES = values();

	/**
	 * Return the kind of a cause.
	 * @param cause a cause such as {@code dependency:recommendations-api}
	 * @return its kind; {@link #LEVEL} for a cause of no other kind
	 */
	public static ShedCauseKind of(String cause) {
		if (cause.startsWith("dependency")) {
			return DEPENDENCY;
		}
		if (cause.startsWith("switch")) {
			return SWITCH;
		}
		if (cause.startsWith("overload")) {
			return OVERLOAD;
		}
		return LEVEL;
	}

	/**
	 * Return the kind at an ordinal, without the copy {@code values()} makes.
	 * @param ordinal the ordinal
	 * @return the kind
	 */
	static ShedCauseKind at(int ordinal) {
		return VALUES[ordinal];
	}

	/**
	 * Return the kind as a metric tag value.
	 * @return the name in lower case, such as {@code switch}
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}

package dev.degradation.parts;

/**
 * Told how each part was settled, to count the parts that were missing or stale. One small
 * interface, so that the gatherer does not know which meter registry, if any, is behind it.
 */
@FunctionalInterface
public interface PartOutcomes {

	/** Counts nothing. */
	PartOutcomes NONE = (part, state) -> {
	};

	/**
	 * Record how a part was settled.
	 * @param part the part's name
	 * @param state how it was settled
	 */
	void record(String part, PartState state);

}

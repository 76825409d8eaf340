package dev.degradation.parts;

/**
 * How an optional part of an answer was settled.
 */
public enum PartState {

	/** The part's call answered within its budget. */
	FRESH,

	/** The call failed or ran out of time, and the part's last good value was used. */
	STALE,

	/** The call failed or ran out of time, and there was no usable last good value: unknown. */
	MISSING

}

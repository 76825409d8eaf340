package dev.degradation.overload;

import org.jspecify.annotations.Nullable;

/**
 * The one rule by which a request's priority travels between services in a header: the value is
 * the priority of the request's tier as the manifest writes it ({@code 1}), or {@code core} for a
 * request of a route outside the manifest. Priority numbers mean the same in every service of a
 * chain, as criticality levels do across a fleet, so a callee can compare a caller's number with
 * its own tiers'.
 *
 * <p>A passed priority can only lower a request's priority, never raise it: the receiving service
 * takes the lower of its route's declared priority and the passed one, so a caller that claims
 * more than the route declares, or sends {@code core}, gets exactly what it would get without the
 * header. That is why the header needs no trust. A header that is absent or unreadable changes
 * nothing either.
 */
public final class PassedPriority {

	/**
	 * The priority of a core request, as an {@code int}: above every tier's (a manifest's
	 * priorities are 1 to 1000).
	 */
	public static final int CORE = Integer.MAX_VALUE;

	/** The header value of a core request. */
	public static final String CORE_VALUE = "core";

	/**
	 * The lowest priority a caller can pass, below every tier's: a lower number means the same.
	 * Every value a header yields lies in {@code [LOWEST, CORE]}, so none is a number the code
	 * keeps outside that range for itself.
	 */
	public static final int LOWEST = 0;

	private PassedPriority() {
	}

	/**
	 * Read the priority a caller passed.
	 * @param header the header's value, or {@code null}
	 * @return the priority, at least {@link #LOWEST}; {@link #CORE} when the header is absent,
	 * {@code core}, unreadable or above every {@code int}
	 */
	public static int read(@Nullable String header) {
		if (!HeaderNumber.readable(header)) {
			return CORE;
		}
		return (int) HeaderNumber.clamped(header, LOWEST, CORE);
	}

	/**
	 * Return the priority a request is served at: its route's, lowered by its caller's.
	 * @param declared the priority of the request's route, {@link #CORE} for a core route
	 * @param header the priority its caller passed, or {@code null}
	 * @return the lower of the two
	 */
	public static int lower(int declared, @Nullable String header) {
		return Math.min(declared, read(header));
	}

	/**
	 * Write a priority as the header passes it on.
	 * @param priority the priority, {@link #CORE} for a core request
	 * @return the header's value
	 */
	public static String header(int priority) {
		return (priority == CORE) ? CORE_VALUE : Integer.toString(priority);
	}

}

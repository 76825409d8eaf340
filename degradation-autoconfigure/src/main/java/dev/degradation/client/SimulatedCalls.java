package dev.degradation.client;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import dev.degradation.engine.RequestSimulation;

/**
 * What a guarded call does for a request that asked for its own simulation
 * ({@link RequestSimulation}): a call to a dependency the request simulates as failed is not made
 * and fails at once as a refused call, so the route's partial answers and refused-call fallback
 * run as they would; every other guarded call carries the simulation's two headers on, so that a
 * service downstream with the starter and the same token degrades the same request the same way.
 * A call made for a request without a simulation of its own carries neither header, whatever the
 * application copied from the request it serves: a header that did not pass the token check here
 * goes no further.
 */
public final class SimulatedCalls {

	private SimulatedCalls() {
	}

	/**
	 * Return the failure of a guarded call that a request's simulation fails without making it.
	 * @param simulation the simulation of the request the call is made for, or {@code null}
	 * @param dependency the dependency called
	 * @return the failure, or {@code null} when the call is to be made
	 */
	public static @Nullable DependencyUnavailableException refused(@Nullable RequestSimulation simulation,
			String dependency) {
		if (simulation == null || !simulation.fails(dependency)) {
			return null;
		}
		return new DependencyUnavailableException(dependency, DependencyUnavailableException.Reason.SIMULATED,
				"simulated as failed by the request (" + RequestSimulation.CAUSE + ")", null);
	}

	/**
	 * Set a guarded call's simulation headers: the request's own simulation, or none.
	 * @param headers the call's headers, writable
	 * @param simulation the simulation of the request the call is made for, or {@code null}
	 */
	public static void passOn(HttpHeaders headers, @Nullable RequestSimulation simulation) {
		if (simulation != null) {
			headers.set(RequestSimulation.HEADER, simulation.header());
			headers.set(RequestSimulation.TOKEN_HEADER, simulation.token());
		}
		else {
			headers.remove(RequestSimulation.HEADER);
			headers.remove(RequestSimulation.TOKEN_HEADER);
		}
	}

	/**
	 * Return whether headers carry either of the simulation's headers.
	 * @param headers the headers
	 * @return whether one of them is there
	 */
	public static boolean carried(HttpHeaders headers) {
		return headers.containsHeader(RequestSimulation.HEADER) || headers.containsHeader(RequestSimulation.TOKEN_HEADER);
	}

}

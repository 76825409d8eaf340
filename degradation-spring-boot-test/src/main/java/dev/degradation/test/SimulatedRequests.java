package dev.degradation.test;

import java.util.Arrays;

import org.springframework.http.HttpHeaders;

import dev.degradation.engine.RequestSimulation;

/**
 * The headers that let one of a test's own requests ask for its simulation
 * ({@code degradation.simulation.requests}): that request answers as the simulation says, and the
 * guarded calls made for it pass it on, while the engine's level, its dependencies and every other
 * request stay as they are, so a test needs no reset afterwards and tests that share a context
 * cannot see each other's simulations. {@link AutoConfigureDegradation @AutoConfigureDegradation}
 * turns request simulation on with a token of the test context's own, and this bean carries it:
 * <pre class="code">
 * mvc.get().uri("/api/recommendations").headers(simulated.level(2))
 * webTestClient.get().uri("/api/recommendations").headers((headers) -&gt; headers.addAll(simulated.failed("recommendations-api")))
 * </pre>
 */
public final class SimulatedRequests {

	private final String token;

	/**
	 * Create the headers' source.
	 * @param token the token the application under test checks
	 */
	public SimulatedRequests(String token) {
		this.token = token;
	}

	/**
	 * Return the headers of a request that is answered as the level's simulation would answer it.
	 * @param level the level
	 * @return the headers
	 */
	public HttpHeaders level(int level) {
		return headers("level=" + level);
	}

	/**
	 * Return the headers of a request that is answered as if the dependencies were FAILED, its
	 * guarded calls to them failing at once without being made.
	 * @param dependencies the dependencies, by their manifest names
	 * @return the headers
	 */
	public HttpHeaders failed(String... dependencies) {
		if (dependencies.length == 0) {
			throw new IllegalArgumentException("Name at least one dependency to simulate as failed");
		}
		return headers("failed=" + String.join(",", Arrays.asList(dependencies)));
	}

	private HttpHeaders headers(String simulation) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(RequestSimulation.HEADER, simulation);
		headers.set(RequestSimulation.TOKEN_HEADER, this.token);
		return headers;
	}

	@Override
	public String toString() {
		return "SimulatedRequests";
	}

}

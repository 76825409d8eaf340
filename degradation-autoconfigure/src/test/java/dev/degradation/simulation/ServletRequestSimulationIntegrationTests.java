package dev.degradation.simulation;

/**
 * A request's own simulation across a call graph of Spring MVC services.
 */
class ServletRequestSimulationIntegrationTests extends RequestSimulationIntegrationTests {

	private static final ContextsOf contexts = new ContextsOf();

	ServletRequestSimulationIntegrationTests() {
		super("servlet", ServletCaller.class, contexts);
	}

}

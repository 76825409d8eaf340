package dev.degradation.simulation;

/**
 * A request's own simulation across a call graph of WebFlux services.
 */
class ReactiveRequestSimulationIntegrationTests extends RequestSimulationIntegrationTests {

	private static final ContextsOf contexts = new ContextsOf();

	ReactiveRequestSimulationIntegrationTests() {
		super("reactive", ReactiveCaller.class, contexts);
	}

}

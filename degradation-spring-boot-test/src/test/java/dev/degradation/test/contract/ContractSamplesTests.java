package dev.degradation.test.contract;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.platform.testkit.engine.Events;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.degradation.test.OnlyInTestKit;
import dev.degradation.test.TestKit;
import dev.degradation.test.testapp.ShopApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The requests the contract sends: sample values for path variables, a path of the user's own
 * for a route or a handler, and what the contract needs from the test.
 */
class ContractSamplesTests {

	private static final String SAMPLES = "degradation.manifest=classpath:contract/samples.yaml";

	@Test
	void pathVariablesGetSampleValuesThatTheHandlersPatternAccepts() {
		Events events = TestKit.run(WithoutSamplePaths.class);
		assertThat(TestKit.names(events)).contains(
				"GET /api/orders/{id}/invoice (enhanced) > GET /api/orders/{id}/invoice is served by "
						+ "InvoiceController#invoice(long)",
				"GET /api/orders/{id}/invoice (enhanced) > GET /api/orders/{id}/invoice at level 0: reaches the "
						+ "application",
				"GET /api/orders/{id}/invoice (enhanced) > GET /api/orders/{id}/invoice at level 1: answers its "
						+ "static fallback");
		assertThat(TestKit.failures(events)).singleElement()
			.asString()
			.startsWith("handlers not in the manifest, at level 1 > GET /api/search is never degraded: No sample "
					+ "request of GET /api/search reaches its handler (/api/search: Parameter conditions \"q\" not met")
			.endsWith("; give one with samplePath(\"GET /api/search\", \"...\")");
	}

	@Test
	void aSamplePathOfTheUsersOwnReachesTheHandler() {
		Events events = TestKit.run(WithSamplePaths.class);
		assertThat(TestKit.failures(events)).isEmpty();
		assertThat(TestKit.names(events)).contains("handlers not in the manifest, at level 1 > GET /api/search "
				+ "is never "
				+ "degraded");
	}

	@Test
	void aSamplePathThatTheRoutesPatternDoesNotMatchIsNotSent() {
		assertThat(TestKit.failures(TestKit.run(WithASamplePathOfAnotherRoute.class))).singleElement()
			.asString()
			.isEqualTo("GET /api/orders/{id}/invoice (enhanced) > GET /api/orders/{id}/invoice is served by a "
					+ "handler of the application: No sample "
					+ "request of GET /api/orders/{id}/invoice of tier enhanced (priority 1), declared at "
					+ "classpath:contract/samples.yaml:6:9 (tiers.enhanced.routes[0]) reaches a handler of the "
					+ "application (/api/order/1/invoice: not a path of /api/orders/{id}/invoice); give one with "
					+ "samplePath(\"GET /api/orders/{id}/invoice\", \"...\")");
	}

	@Test
	void aSamplePathForNeitherARouteNorAHandlerIsRefusedWithTheNearest() {
		assertThat(TestKit.containerFailures(WithAMistypedSamplePath.class)).containsExactly("samplePath(\"GET "
				+ "/api/serch\", ...) names neither a route of the manifest nor a handler outside it; did you mean "
				+ "\"GET /api/search\"?");
	}

	@Test
	void theContractNeedsARunningServerOrMockMvc() {
		assertThat(TestKit.containerFailures(WithNeitherServerNorMockMvc.class))
			.containsExactly("The degradation contract needs a running server "
					+ "(@SpringBootTest(webEnvironment = RANDOM_PORT)) or MockMvc (@WebMvcTest, "
					+ "@AutoConfigureMockMvc)");
	}

	@Test
	void theContractNeedsTheAnnotation() {
		assertThat(TestKit.containerFailures(WithoutTheAnnotation.class))
			.containsExactly("The degradation contract needs @AutoConfigureDegradation on the test class");
	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, InvoiceController.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = SAMPLES)
	static class WithoutSamplePaths extends DegradationContractTests {

	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, InvoiceController.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = SAMPLES)
	static class WithSamplePaths extends DegradationContractTests {

		@Override
		protected void configure(DegradationContract.Builder contract) {
			contract.samplePath("GET /api/search", "/api/search?q=kettle")
				.samplePath("GET /api/orders/{id}/invoice", "/api/orders/42/invoice");
		}

	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, InvoiceController.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = SAMPLES)
	static class WithASamplePathOfAnotherRoute extends DegradationContractTests {

		@Override
		protected void configure(DegradationContract.Builder contract) {
			contract.samplePath("GET /api/search", "/api/search?q=kettle")
				.samplePath("GET /api/orders/{id}/invoice", "/api/order/1/invoice");
		}

	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, InvoiceController.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = SAMPLES)
	static class WithAMistypedSamplePath extends DegradationContractTests {

		@Override
		protected void configure(DegradationContract.Builder contract) {
			contract.samplePath("GET /api/serch", "/api/search?q=kettle");
		}

	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, InvoiceController.class }, properties = SAMPLES)
	static class WithNeitherServerNorMockMvc extends DegradationContractTests {

	}

	@OnlyInTestKit
	@SpringBootTest(classes = { ShopApplication.class, InvoiceController.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = SAMPLES)
	static class WithoutTheAnnotation {

		@TestFactory
		Stream<DynamicNode> contract(ApplicationContext context) {
			return DegradationContract.of(context).build().tests();
		}

	}

	@RestController
	static class InvoiceController {

		@GetMapping("/api/orders/{id:\\d+}/invoice")
		Map<String, Object> invoice(@PathVariable long id) {
			return Map.of("invoice", id, "source", "live");
		}

		@GetMapping(path = "/api/search", params = "q")
		Map<String, Object> search(@RequestParam String q) {
			return Map.of("results", q);
		}

	}

}

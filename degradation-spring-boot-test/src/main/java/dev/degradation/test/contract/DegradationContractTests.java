package dev.degradation.test.contract;

import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import org.springframework.context.ApplicationContext;

import dev.degradation.test.AutoConfigureDegradation;

/**
 * The {@linkplain DegradationContract contract tests} of the application's manifest, ready to
 * extend: annotate the subclass as a Spring test of the application, with a running server or
 * MockMvc, and every route is tested at every level.
 *
 * <pre class="code">
 * &#064;SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
 * class ShopDegradationContractTests extends DegradationContractTests {
 *
 * 	&#064;Override
 * 	protected void configure(DegradationContract.Builder contract) {
 * 		contract.samplePath("GET /api/catalog/{id}/reviews", "/api/catalog/p-1/reviews");
 * 	}
 *
 * }
 * </pre>
 *
 * Annotated with {@link AutoConfigureDegradation @AutoConfigureDegradation}, which the subclass
 * inherits (it may declare its own).
 */
@AutoConfigureDegradation
public abstract class DegradationContractTests {

	/**
	 * Return the contract's tests.
	 * @param context the test's application context
	 * @return the tests
	 */
	@TestFactory
	@DisplayName("degradation manifest contract")
	protected final Stream<DynamicNode> manifestContract(ApplicationContext context) {
		DegradationContract.Builder contract = DegradationContract.of(context);
		configure(contract);
		return contract.build().tests();
	}

	/**
	 * Configure the contract before it is built: sample paths, headers, or another client.
	 * Does nothing by default.
	 * @param contract the builder of the contract
	 */
	protected void configure(DegradationContract.Builder contract) {
	}

}

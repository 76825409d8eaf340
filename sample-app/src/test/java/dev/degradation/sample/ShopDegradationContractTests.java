package dev.degradation.sample;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.degradation.test.contract.DegradationContractTests;

/**
 * The shop's degradation manifest as tests, against the running shop: every route at every level
 * answers its fallback or reaches its handler, and the core (products, orders, the demo API)
 * is never degraded. Nothing to write but this class: the tests come from the manifest.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ShopDegradationContractTests extends DegradationContractTests {

}

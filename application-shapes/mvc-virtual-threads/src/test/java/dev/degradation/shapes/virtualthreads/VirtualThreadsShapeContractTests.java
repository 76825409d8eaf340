package dev.degradation.shapes.virtualthreads;

import org.springframework.boot.test.context.SpringBootTest;

import dev.degradation.test.contract.DegradationContractTests;

/**
 * The shape's manifest as the contract tests generated from it, against the running application:
 * every route, annotated and functional, at every level.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class VirtualThreadsShapeContractTests extends DegradationContractTests {

}

/**
 * Contract tests generated from the application's degradation manifest: for every route, at
 * every level, the answer the manifest promises; for every handler the manifest does not name,
 * never a degraded answer. Extend
 * {@link dev.degradation.test.contract.DegradationContractTests} or return
 * {@link dev.degradation.test.contract.DegradationContract#tests()} from a {@code @TestFactory}.
 */
@NullMarked
package dev.degradation.test.contract;

import org.jspecify.annotations.NullMarked;

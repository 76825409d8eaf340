/**
 * The catalog's capacity-limited checkout, for the overload harness, and the peers it is compared
 * with.
 */
@NullMarked
package dev.degradation.samplereactive.capacity;

import org.jspecify.annotations.NullMarked;

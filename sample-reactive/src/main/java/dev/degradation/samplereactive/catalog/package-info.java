/**
 * The catalog's handlers: products from memory, reviews and recommendations from its dependencies,
 * each a {@code Mono} that never blocks the event loop.
 */
@NullMarked
package dev.degradation.samplereactive.catalog;

import org.jspecify.annotations.NullMarked;

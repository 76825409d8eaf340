/**
 * The shop's core: the product catalog and orders. None of it is in the degradation manifest, so
 * it answers at every shed level.
 */
@NullMarked
package dev.degradation.sample.shop;

import org.jspecify.annotations.NullMarked;

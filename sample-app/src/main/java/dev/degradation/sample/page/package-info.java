/**
 * The product page: a partial answer gathered inside the handler. The product is its core; its
 * reviews and recommendations are optional parts, each within its budget, named in
 * {@code X-Degraded-Parts} when missing or stale.
 */
@NullMarked
package dev.degradation.sample.page;

import org.jspecify.annotations.NullMarked;

/**
 * The shop's optional features (analytics, A/B assignment, recommendations, personalization):
 * each calls a dependency over HTTP, and each is in the degradation manifest, which sheds it when
 * that dependency fails.
 */
@NullMarked
package dev.degradation.sample.extras;

import org.jspecify.annotations.NullMarked;

/**
 * DEMO ONLY: an HTTP API that breaks the embedded dependencies on demand, so that one can watch
 * the degradation starter react. Nothing a real service would expose.
 */
@NullMarked
package dev.degradation.sample.demo;

import org.jspecify.annotations.NullMarked;

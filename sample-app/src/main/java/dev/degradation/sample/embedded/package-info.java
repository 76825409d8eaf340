/**
 * The shop's dependencies ({@code analytics-collector}, {@code recommendations-api},
 * {@code personalization-service}) played in-process, each by its own HTTP server on 127.0.0.1,
 * started before the manifest loads so that its health URLs can point at them, and switchable at
 * run time between healthy and the ways a real dependency breaks.
 */
@NullMarked
package dev.degradation.sample.embedded;

import org.jspecify.annotations.NullMarked;

/**
 * The shop's dependencies ({@code analytics-collector}, {@code recommendations-api},
 * {@code personalization-service}) played by one in-process HTTP server on 127.0.0.1, started
 * before the manifest loads so that its health URLs can point at it.
 */
@NullMarked
package dev.degradation.sample.embedded;

import org.jspecify.annotations.NullMarked;

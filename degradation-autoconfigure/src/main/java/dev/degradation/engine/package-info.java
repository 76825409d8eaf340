/**
 * The shed level: derived from dependency states, simulation and hysteresis, and published as an
 * immutable {@link dev.degradation.engine.DegradationState} snapshot that the request path reads
 * with one volatile read. Plain Java; knows nothing of Spring Boot.
 */
@NullMarked
package dev.degradation.engine;

import org.jspecify.annotations.NullMarked;

/**
 * Auto-configuration of the degradation starter, and nothing else: the configurations that wire
 * the manifest, engine, filters, endpoint, meters and guards together, their conditions, the
 * properties of each concern beside the configuration that reads them, and the failure analyzers
 * that explain a bad manifest at startup. What runs in the application lives beside what it
 * serves (the reloader in {@code reload}, probing in {@code monitor.probing}, periodic tasks in
 * {@code engine.periodic}, handler reading in {@code handler}, events in {@code event}), so that
 * no other package, and no user, needs to import this one. Other starters' settings come from
 * their own property beans ({@code WebEndpointProperties}, {@code SecurityFilterProperties}),
 * not from the Environment.
 */
@NullMarked
package dev.degradation.autoconfigure;

import org.jspecify.annotations.NullMarked;

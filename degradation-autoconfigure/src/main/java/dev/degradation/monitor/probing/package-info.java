/**
 * Probing the manifest's dependencies for as long as the application is up: the probes of
 * {@code monitor} started once the application is ready, stopped with the context, and replaced
 * when the manifest is. Beside the monitor whose probes it runs, apart from it because it is a
 * Spring lifecycle and feeds the engine: the monitor itself stays plain Java.
 */
@NullMarked
package dev.degradation.monitor.probing;

import org.jspecify.annotations.NullMarked;

/**
 * The engine's periodic work in a running application: a task on a daemon thread of its own at a
 * fixed delay ({@link dev.degradation.engine.periodic.PeriodicTask}), and the evaluation that
 * derives the shed level again every second so that a step down due after the hysteresis comes
 * without waiting for a probe. Beside the engine it runs, apart from it because it is a Spring
 * lifecycle: the engine itself stays plain Java, tested with an injected clock.
 */
@NullMarked
package dev.degradation.engine.periodic;

import org.jspecify.annotations.NullMarked;

/**
 * The degradation manifest: its immutable model, the YAML loader with parsing limits, and the
 * validation that reports every problem with its position. Plain Java; knows nothing of Spring
 * Boot.
 */
@NullMarked
package dev.degradation.manifest;

import org.jspecify.annotations.NullMarked;

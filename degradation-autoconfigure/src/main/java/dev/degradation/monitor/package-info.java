/**
 * Health of the dependencies: probing one dependency over HTTP, its sliding window of probe
 * results, and the state (unknown, healthy, failed) that the window implies. Plain Java; knows
 * nothing of Spring Boot.
 */
@NullMarked
package dev.degradation.monitor;

import org.jspecify.annotations.NullMarked;

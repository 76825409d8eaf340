/**
 * What operators see and control: the {@code degradation} Actuator endpoint and the Micrometer
 * meters.
 */
@NullMarked
package dev.degradation.actuate;

import org.jspecify.annotations.NullMarked;

/**
 * Auto-configuration of the test support, imported by
 * {@link dev.degradation.test.AutoConfigureDegradation @AutoConfigureDegradation}.
 */
@NullMarked
package dev.degradation.test.autoconfigure;

import org.jspecify.annotations.NullMarked;

/**
 * Test support for applications that use the degradation starter:
 * {@link dev.degradation.test.AutoConfigureDegradation @AutoConfigureDegradation} for
 * {@code @WebMvcTest} and {@code @SpringBootTest} classes, the
 * {@link dev.degradation.test.DegradationExtension extension} that puts the engine back between
 * tests, and a {@link dev.degradation.test.DegradationTestClock clock} that tests move.
 */
@NullMarked
package dev.degradation.test;

import org.jspecify.annotations.NullMarked;

/**
 * Tests that load and check every example manifest.
 */
@NullMarked
package dev.degradation.examples;

import org.jspecify.annotations.NullMarked;

/**
 * A small shop for the tests of the test support, and the broken variants that its contract
 * must catch.
 */
@NullMarked
package dev.degradation.test.testapp;

import org.jspecify.annotations.NullMarked;

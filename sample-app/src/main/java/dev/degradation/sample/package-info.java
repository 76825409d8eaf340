/**
 * A small shop that sheds its optional features through the degradation starter, with the
 * dependencies those features call embedded so that it runs with one command.
 */
@NullMarked
package dev.degradation.sample;

import org.jspecify.annotations.NullMarked;

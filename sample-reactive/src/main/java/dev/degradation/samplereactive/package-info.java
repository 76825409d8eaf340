/**
 * The reactive sample: a WebFlux catalog whose optional features degrade through the starter.
 */
@NullMarked
package dev.degradation.samplereactive;

import org.jspecify.annotations.NullMarked;

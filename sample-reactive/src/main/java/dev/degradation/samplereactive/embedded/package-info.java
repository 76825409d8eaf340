/**
 * The catalog's dependencies, played in-process by JDK HTTP servers on loopback, started before
 * the manifest loads so that its URLs resolve, and switchable between healthy and failing.
 */
@NullMarked
package dev.degradation.samplereactive.embedded;

import org.jspecify.annotations.NullMarked;

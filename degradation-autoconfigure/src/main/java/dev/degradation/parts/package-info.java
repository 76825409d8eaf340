/**
 * Partial answers from inside a handler: optional parts gathered in parallel, each within its
 * budget and the request's deadline, each with its fallback (its last good value with its age, or
 * unknown), and the parts that are missing or stale named in the answer
 * ({@code X-Degraded-Parts}) and counted.
 */
@NullMarked
package dev.degradation.parts;

import org.jspecify.annotations.NullMarked;

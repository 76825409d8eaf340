/**
 * Admission of requests under load: a concurrency limit (adaptive, a concurrency-limits limit that
 * keeps the standing queue inside the service short, or fixed), priority by tier so that the
 * capacity goes to the core, a bounded wait that never outlives the caller's deadline, the overload
 * signal that raises the shed level while admission is saturated, and the rule and holder of the
 * priority a request passes on to the services it calls. Plain Java; knows nothing of Spring.
 */
@NullMarked
package dev.degradation.overload;

import org.jspecify.annotations.NullMarked;

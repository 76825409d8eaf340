/**
 * The reactive stack's adapter of the request decision (WebFlux, and Spring Cloud Gateway on it):
 * a {@code WebFilter} that reads an exchange, asks the decision and writes its answer or lets the
 * exchange go on, without blocking its thread.
 */
@NullMarked
package dev.degradation.web.reactive;

import org.jspecify.annotations.NullMarked;

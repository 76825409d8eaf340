/**
 * Guards for the application's own calls to its dependencies: a Resilience4j circuit breaker,
 * time limit and retry per dependency, {@code Retry-After} within a total budget, deadlines
 * received with a request, and the {@code RestClient} interceptor that applies them and passes
 * the request's priority on; each
 * attempt's time limit as the HTTP client's own per-request timeout where it has one
 * ({@link dev.degradation.client.AttemptLimit}), else a bounded executor. The {@code WebClient}
 * filter ({@link dev.degradation.client.GuardingExchangeFilter}) applies the same guards with
 * Reactor operators, without blocking.
 */
@NullMarked
package dev.degradation.client;

import org.jspecify.annotations.NullMarked;

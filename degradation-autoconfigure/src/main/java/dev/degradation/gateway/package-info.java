/**
 * Spring Cloud Gateway (server WebFlux): the gateway's own calls to a backend that the manifest
 * declares as a dependency are evidence for that dependency's breaker, and are bounded by its
 * time limit and the caller's deadline, bodies included; the deadline passed on is the time left.
 * The gateway's routes are read as handlers by the auto-configuration's
 * {@code GatewayHandlerRoutes}. Shedding at the edge needs nothing here: the reactive {@code WebFilter} runs
 * before the gateway's handler.
 */
@NullMarked
package dev.degradation.gateway;

import org.jspecify.annotations.NullMarked;

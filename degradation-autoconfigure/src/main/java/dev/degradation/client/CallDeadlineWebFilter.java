package dev.degradation.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.degradation.overload.Deadline;

/**
 * The reactive stack's {@link CallDeadlineFilter}: reads the time its caller still waits from a
 * request header and carries the deadline in the exchange's Reactor context, under
 * {@link CallDeadline#KEY}, where the guard of every {@code WebClient} call made for the
 * request finds it, and from where Micrometer's context-propagation restores it as the
 * {@link CallDeadline} of the threads that serve the request (with
 * {@code spring.reactor.context-propagation=auto}). The
 * header is read as admission reads it: absent or unreadable is no deadline, 0 or less has passed
 * (the calls then fail at once), above the maximum is the maximum.
 */
public class CallDeadlineWebFilter implements WebFilter, Ordered {

	private final String header;

	private final Duration maximum;

	private final Clock clock;

	/**
	 * Create a filter.
	 * @param header the request header that carries the time left, in milliseconds
	 * @param maximum the longest deadline accepted
	 * @param clock the clock deadlines are measured against
	 */
	public CallDeadlineWebFilter(String header, Duration maximum, Clock clock) {
		this.header = header;
		this.maximum = maximum;
		this.clock = clock;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 10;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		Duration budget = Deadline.remaining(exchange.getRequest().getHeaders().getFirst(this.header), this.maximum);
		if (budget == null) {
			return chain.filter(exchange);
		}
		Instant deadline = this.clock.instant().plus(budget);
		return chain.filter(exchange).contextWrite((context) -> context.put(CallDeadline.KEY, deadline));
	}

}

package dev.degradation.samplereactive.capacity;

import java.time.Duration;
import java.util.Optional;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;

/**
 * The peers of the overload harness (benchmarks/overload.sh) on WebFlux, as the servlet sample's
 * are, each a web filter in front of the whole catalog, switched on with {@code sample.peer} and
 * run with the starter off: {@code bulkhead}, a Resilience4j Bulkhead hand-tuned to 4 concurrent
 * calls ({@code sample.peer.bulkhead-size}) and no wait; {@code gradient2}, Netflix
 * concurrency-limits' Gradient2 at its defaults. Both answer 503 with {@code Retry-After: 1} when
 * they refuse. Not part of the catalog's behaviour otherwise.
 * <p>
 * A third, {@code refuse-all}, admits nothing: it answers every request to the catalog 503 at
 * once, the cheapest answer a filter can give. The harness runs it as the machine's floor: no
 * configuration's refusals can be written faster under the same load, and no admitted answer can
 * come sooner than that plus its own service time.
 */
@Configuration(proxyBeanMethods = false)
public class PeerAdmissionConfiguration {

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 10)
	@ConditionalOnProperty(name = "sample.peer", havingValue = "bulkhead")
	WebFilter bulkheadPeer(@Value("${sample.peer.bulkhead-size:4}") int size) {
		Bulkhead bulkhead = Bulkhead.of("peer",
				BulkheadConfig.custom().maxConcurrentCalls(size).maxWaitDuration(Duration.ZERO).build());
		return peer((exchange, chain) -> {
			if (!bulkhead.tryAcquirePermission()) {
				return refuse(exchange);
			}
			return chain.filter(exchange).doFinally((signal) -> bulkhead.onComplete());
		});
	}

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 10)
	@ConditionalOnProperty(name = "sample.peer", havingValue = "gradient2")
	WebFilter gradient2Peer() {
		Limiter<Void> limiter = SimpleLimiter.newBuilder().limit(Gradient2Limit.newDefault()).build();
		return peer((exchange, chain) -> {
			Optional<Limiter.Listener> listener = limiter.acquire(null);
			if (listener.isEmpty()) {
				return refuse(exchange);
			}
			return chain.filter(exchange).doFinally((signal) -> {
				if (signal == SignalType.ON_COMPLETE) {
					listener.get().onSuccess();
				}
				else {
					listener.get().onIgnore();
				}
			});
		});
	}

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 10)
	@ConditionalOnProperty(name = "sample.peer", havingValue = "refuse-all")
	WebFilter refuseAllPeer() {
		return peer((exchange, chain) -> refuse(exchange));
	}

	private static WebFilter peer(WebFilter filter) {
		return (exchange, chain) -> {
			String path = exchange.getRequest().getPath().pathWithinApplication().value();
			if (path.startsWith("/actuator") || path.startsWith("/demo")) {
				return chain.filter(exchange);
			}
			return filter.filter(exchange, chain);
		};
	}

	private static Mono<Void> refuse(ServerWebExchange exchange) {
		exchange.getResponse().setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
		exchange.getResponse().getHeaders().set("Retry-After", "1");
		return exchange.getResponse().setComplete();
	}

}

package dev.degradation.sample.capacity;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The peers of the overload harness (benchmarks/overload.sh), each a servlet filter in front of the
 * whole shop as seed 000 ran them, switched on with {@code sample.peer} and run with the starter
 * off: {@code bulkhead}, a Resilience4j Bulkhead hand-tuned to 4 concurrent calls ({@code
 * sample.peer.bulkhead-size}) and no wait; {@code gradient2}, Netflix concurrency-limits' Gradient2
 * at its defaults. Both answer 503 when they refuse. Not part of the shop's behaviour otherwise.
 * <p>
 * A third, {@code refuse-all}, admits nothing: it answers every request to the shop 503 at once,
 * the cheapest answer a filter can give. The harness runs it as the machine's floor: no
 * configuration's refusals can be written faster under the same load, and no admitted answer can
 * come sooner than that plus its own service time.
 */
@Configuration(proxyBeanMethods = false)
public class PeerAdmissionConfiguration {

	@Bean
	@ConditionalOnProperty(name = "sample.peer", havingValue = "bulkhead")
	FilterRegistrationBean<Filter> bulkheadPeer(@Value("${sample.peer.bulkhead-size:4}") int size) {
		Bulkhead bulkhead = Bulkhead.of("peer",
				BulkheadConfig.custom().maxConcurrentCalls(size).maxWaitDuration(Duration.ZERO).build());
		return peer((request, response, chain) -> {
			if (!bulkhead.tryAcquirePermission()) {
				refuse(response);
				return;
			}
			try {
				chain.doFilter(request, response);
			}
			finally {
				bulkhead.onComplete();
			}
		});
	}

	@Bean
	@ConditionalOnProperty(name = "sample.peer", havingValue = "gradient2")
	FilterRegistrationBean<Filter> gradient2Peer() {
		Limiter<Void> limiter = SimpleLimiter.newBuilder().limit(Gradient2Limit.newDefault()).build();
		return peer((request, response, chain) -> {
			Optional<Limiter.Listener> listener = limiter.acquire(null);
			if (listener.isEmpty()) {
				refuse(response);
				return;
			}
			try {
				chain.doFilter(request, response);
				listener.get().onSuccess();
			}
			catch (IOException | ServletException | RuntimeException ex) {
				listener.get().onIgnore();
				throw ex;
			}
		});
	}

	@Bean
	@ConditionalOnProperty(name = "sample.peer", havingValue = "refuse-all")
	FilterRegistrationBean<Filter> refuseAllPeer() {
		return peer((request, response, chain) -> refuse(response));
	}

	private static FilterRegistrationBean<Filter> peer(PeerFilter filter) {
		FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(new Filter() {

			@Override
			public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
					throws IOException, ServletException {
				String uri = ((HttpServletRequest) request).getRequestURI();
				if (uri.startsWith("/actuator") || uri.startsWith("/demo")) {
					chain.doFilter(request, response);
					return;
				}
				filter.doFilter(request, (HttpServletResponse) response, chain);
			}

		});
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
		registration.setName("overloadPeer");
		return registration;
	}

	private static void refuse(HttpServletResponse response) {
		response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
		response.setHeader("Retry-After", "1");
	}

	@FunctionalInterface
	private interface PeerFilter {

		void doFilter(ServletRequest request, HttpServletResponse response, FilterChain chain)
				throws IOException, ServletException;

	}

}

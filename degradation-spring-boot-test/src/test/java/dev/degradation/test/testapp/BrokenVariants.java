package dev.degradation.test.testapp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Ways a shop that uses the starter can break what its manifest declares, each added to
 * {@link ShopApplication} by a test: the contract tests must catch every one and name the route.
 */
public final class BrokenVariants {

	private BrokenVariants() {
	}

	/**
	 * A response cache in front of everything that answers {@code GET /api/recommendations}
	 * itself: the degradation filter, ordered after it, never sees the request.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	public static class FilterBeforeTheDegradationFilter {

		@Bean
		FilterRegistrationBean<OncePerRequestFilter> cachingFilter() {
			FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
					new OncePerRequestFilter() {

						@Override
						protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
								FilterChain chain) throws ServletException, IOException {
							if (request.getMethod().equals("GET")
									&& request.getRequestURI().equals("/api/recommendations")) {
								response.setContentType("application/json");
								response.getWriter().write("{\"items\": [\"p-1\"], \"source\": \"cache\"}");
								return;
							}
							chain.doFilter(request, response);
						}

					});
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

	}

	/**
	 * The same response cache on WebFlux: a web filter ordered before the degradation web filter
	 * that answers {@code GET /api/recommendations} itself.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	public static class WebFilterBeforeTheDegradationFilter {

		@Bean
		WebFilter cachingWebFilter() {
			return new CachingWebFilter();
		}

		static final class CachingWebFilter implements WebFilter, Ordered {

			@Override
			public int getOrder() {
				return Ordered.HIGHEST_PRECEDENCE;
			}

			@Override
			public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
				if (exchange.getRequest().getMethod() == HttpMethod.GET
						&& exchange.getRequest().getPath().value().equals("/api/recommendations")) {
					ServerHttpResponse response = exchange.getResponse();
					response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
					return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory()
						.wrap("{\"items\": [\"p-1\"], \"source\": \"cache\"}".getBytes(StandardCharsets.UTF_8))));
				}
				return chain.filter(exchange);
			}

		}

	}

	/**
	 * A servlet of its own for {@code /api/recommendations} (an exact mapping wins over Spring
	 * MVC's {@code /}): the degradation filter applies to Spring MVC's requests only, so it never
	 * sees these, although Spring MVC has a handler for the path too.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	public static class ServletForTheRoutesPath {

		@Bean
		ServletRegistrationBean<HttpServlet> legacyRecommendations() {
			HttpServlet servlet = new HttpServlet() {

				@Override
				protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
					response.setContentType("application/json");
					response.getWriter().write("{\"items\": [\"p-1\"], \"source\": \"legacy\"}");
				}

			};
			return new ServletRegistrationBean<>(servlet, "/api/recommendations");
		}

	}

	/**
	 * A filter in front of everything that wraps every JSON answer in an envelope, the fallbacks'
	 * too: what is served is no longer the {@code static_response} that the manifest declares.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	public static class EnvelopeFilter {

		@Bean
		FilterRegistrationBean<OncePerRequestFilter> envelopeFilter() {
			FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
					new OncePerRequestFilter() {

						@Override
						protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
								FilterChain chain) throws ServletException, IOException {
							ContentCachingResponseWrapper wrapper = new ContentCachingResponseWrapper(response);
							chain.doFilter(request, wrapper);
							byte[] body = wrapper.getContentAsByteArray();
							String contentType = wrapper.getContentType();
							boolean json = contentType != null && contentType.startsWith("application/json");
							if (body.length == 0 || !json) {
								wrapper.copyBodyToResponse();
								return;
							}
							byte[] enveloped = ("{\"data\": " + new String(body, StandardCharsets.UTF_8) + "}")
								.getBytes(StandardCharsets.UTF_8);
							wrapper.resetBuffer();
							response.setContentLength(enveloped.length);
							response.getOutputStream().write(enveloped);
						}

					});
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

	}

	/**
	 * A core handler that the manifest's {@code GET /api/products/{id}/reviews} catches: Spring MVC
	 * sends {@code /api/products/featured/reviews} here, but while the enhanced tier is shed the
	 * degradation filter answers it with the reviews' fallback.
	 */
	@RestController
	public static class FeaturedReviewsController {

		@GetMapping("/api/products/featured/reviews")
		Map<String, Object> featuredReviews() {
			return Map.of("reviews", List.of("best of the month"), "source", "live");
		}

	}

}

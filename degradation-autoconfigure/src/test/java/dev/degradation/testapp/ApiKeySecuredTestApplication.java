package dev.degradation.testapp;

import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * An API whose callers authenticate by an API key in {@code X-API-Key}, read by Spring Security's
 * own authentication filter (on either web stack), as services called by other services often
 * are: no {@code Authorization}, no cookie, and answers that are each caller's own without a
 * {@code Vary}. With {@code testapp.servlet-api=disabled}, Spring Security's servlet API
 * integration is off on Spring MVC: the request reports no principal. On Spring MVC Spring Security's headers are its defaults: its
 * {@code Cache-Control: no-store} is written as the answer commits, after the starter's filter has
 * seen the answer, so it keeps no copy from being stored. On WebFlux it is written before, and the
 * chain leaves it out, as an API that leaves HTTP caching to its own answers does.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ ApiKeySecuredTestApplication.StatementController.class,
		ApiKeySecuredTestApplication.ServletSecurity.class, ApiKeySecuredTestApplication.ReactiveSecurity.class })
public class ApiKeySecuredTestApplication {

	/** The header a caller's API key is sent in. */
	public static final String API_KEY_HEADER = "X-API-Key";

	/** The callers, by API key. */
	static final Map<String, String> CALLERS = Map.of("key-of-alice", "alice", "key-of-bob", "bob");

	static Authentication authenticate(Authentication apiKey) {
		String caller = CALLERS.get(apiKey.getName());
		if (caller == null) {
			throw new BadCredentialsException("Unknown API key");
		}
		return UsernamePasswordAuthenticationToken.authenticated(caller, null,
				AuthorityUtils.createAuthorityList("ROLE_USER"));
	}

	/**
	 * The caller's own statement: an answer no other caller may see.
	 */
	@RestController
	static class StatementController {

		// Spring Security's own argument: also where its servlet API integration is off.
		@GetMapping("/api/accounts/{id}/statement")
		Map<String, Object> statement(@PathVariable String id, @AuthenticationPrincipal String caller) {
			return Map.of("account", id, "owner", caller, "balance", caller.length() * 100);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class ServletSecurity {

		@Bean
		SecurityFilterChain apiKeySecurityFilterChain(HttpSecurity http,
				@Value("${testapp.servlet-api:enabled}") String servletApi) {
			AuthenticationManager callers = ApiKeySecuredTestApplication::authenticate;
			AuthenticationFilter apiKeys = new AuthenticationFilter(callers, (request) -> {
				String key = request.getHeader(API_KEY_HEADER);
				return (key != null) ? new PreAuthenticatedAuthenticationToken(key, key) : null;
			});
			// An API answers the request itself once its caller is known; no redirect.
			apiKeys.setSuccessHandler((request, response, authentication) -> {
			});
			return http
				.authorizeHttpRequests((requests) -> requests.requestMatchers("/actuator/**")
					.permitAll()
					.anyRequest()
					.authenticated())
				.addFilterBefore(apiKeys, AnonymousAuthenticationFilter.class)
				.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
				.csrf((csrf) -> csrf.disable())
				// Off: the request no longer reports its principal; Spring Security still knows it.
				.servletApi((integration) -> {
					if ("disabled".equals(servletApi)) {
						integration.disable();
					}
				})
				.build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	static class ReactiveSecurity {

		@Bean
		SecurityWebFilterChain apiKeySecurityWebFilterChain(ServerHttpSecurity http) {
			ReactiveAuthenticationManager callers = (apiKey) -> Mono.fromCallable(() -> authenticate(apiKey));
			AuthenticationWebFilter apiKeys = new AuthenticationWebFilter(callers);
			apiKeys.setServerAuthenticationConverter((exchange) -> Mono
				.justOrEmpty(exchange.getRequest().getHeaders().getFirst(API_KEY_HEADER))
				.map((key) -> new PreAuthenticatedAuthenticationToken(key, key)));
			return http
				.authorizeExchange((exchanges) -> exchanges.pathMatchers("/actuator/**")
					.permitAll()
					.anyExchange()
					.authenticated())
				.addFilterAt(apiKeys, SecurityWebFiltersOrder.AUTHENTICATION)
				.headers((headers) -> headers.cache((cache) -> cache.disable()))
				.csrf((csrf) -> csrf.disable())
				.build();
		}

	}

}

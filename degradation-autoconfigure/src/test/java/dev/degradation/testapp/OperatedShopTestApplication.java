package dev.degradation.testapp;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The test shop with the Actuator's reads open and its writes for operators only.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ShopTestApplication.ShopController.class)
public class OperatedShopTestApplication {

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) {
		return http
			.authorizeHttpRequests((requests) -> requests.requestMatchers(HttpMethod.GET, "/actuator/**")
				.permitAll()
				.requestMatchers("/actuator/**")
				.hasRole("OPERATOR")
				.anyRequest()
				.permitAll())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(
				User.withUsername("oncall").password("{noop}pager").roles("OPERATOR").build(),
				User.withUsername("shopper").password("{noop}secret").roles("USER").build());
	}

}

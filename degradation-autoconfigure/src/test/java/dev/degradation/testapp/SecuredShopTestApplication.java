package dev.degradation.testapp;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The test shop with its API behind HTTP Basic authentication and the Actuator open, as a real
 * service would have it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ShopTestApplication.ShopController.class)
public class SecuredShopTestApplication {

	@Bean
	SecurityFilterChain apiSecurityFilterChain(HttpSecurity http) {
		return http
			.authorizeHttpRequests((requests) -> requests.requestMatchers("/actuator/**")
				.permitAll()
				.anyRequest()
				.authenticated())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(
				User.withUsername("shopper").password("{noop}secret").roles("USER").build());
	}

}

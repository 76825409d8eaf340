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
 * The test shop with its Actuator open to read, and of its writes one switch only
 * ({@code /actuator/degradation/switches/best-effort}) open to an on-call role, as a team would
 * let on-call engineers shed the best-effort tier and nothing else.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ShopTestApplication.ShopController.class)
public class OneSwitchSecuredShopTestApplication {

	@Bean
	SecurityFilterChain actuatorSecurityFilterChain(HttpSecurity http) {
		return http
			.authorizeHttpRequests((requests) -> requests.requestMatchers(HttpMethod.GET, "/actuator/**")
				.permitAll()
				.requestMatchers("/actuator/degradation/switches/best-effort")
				.hasRole("ONCALL")
				.requestMatchers("/actuator/**")
				.denyAll()
				.anyRequest()
				.permitAll())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(
				User.withUsername("oncall").password("{noop}secret").roles("ONCALL").build());
	}

}

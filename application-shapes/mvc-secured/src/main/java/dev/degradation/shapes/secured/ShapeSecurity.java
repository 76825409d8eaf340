package dev.degradation.shapes.secured;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The application's security as a team writes it: every request authenticated with HTTP Basic,
 * and the Actuator's writes (operators' scripts, not browsers) without a CSRF token.
 */
@Configuration(proxyBeanMethods = false)
class ShapeSecurity {

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.ignoringRequestMatchers("/actuator/**"))
			.build();
	}

}

package dev.degradation.web.servlet;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;

/**
 * The principal Spring Security authenticated the current request as, read from its security
 * context, for a request whose servlet API does not report it: an application that turned Spring
 * Security's servlet API integration off ({@code servletApi().disable()}) still authenticates
 * its callers, and each caller's copies must stay its own. The anonymous user is no principal, as
 * Spring Security's own request wrapper reports it. Without Spring Security on the class path
 * there is nothing to read.
 */
final class SecurityContextPrincipal {

	private static final boolean PRESENT = ClassUtils.isPresent(
			"org.springframework.security.core.context.SecurityContextHolder",
			SecurityContextPrincipal.class.getClassLoader());

	private SecurityContextPrincipal() {
	}

	/**
	 * Return the principal of the current thread's security context.
	 * @return the authenticated principal, or {@code null} when there is none, it is anonymous,
	 * or Spring Security is absent
	 */
	static @Nullable Principal current() {
		return PRESENT ? Security.current() : null;
	}

	/** What reads Spring Security's types, loaded only when Spring Security is present. */
	private static final class Security {

		private static final AuthenticationTrustResolver TRUST = new AuthenticationTrustResolverImpl();

		static @Nullable Principal current() {
			SecurityContext context = SecurityContextHolder.getContext();
			Authentication authentication = context.getAuthentication();
			if (authentication == null || !authentication.isAuthenticated() || TRUST.isAnonymous(authentication)) {
				return null;
			}
			return authentication;
		}

	}

}

package dev.degradation.web.servlet;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.util.ServletRequestPathUtils;

import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RequestLifecycle;
import dev.degradation.web.StaleAnswers;

/**
 * The servlet stack's adapter of the request decision ({@link RequestDecider}): each request is
 * carried through its {@link RequestLifecycle} (in {@link ServletLifecycle}, which translates its
 * steps into the servlet API). A shed route is answered with its fallback, a request admission has
 * no place for is refused, and every other request goes on, with the {@code X-Degradation-Level}
 * header.
 *
 * <p>While nothing is shed the filter reads one volatile field and sets one header: it does not
 * even parse the path, unless the manifest has a {@code stale} route. Then the live requests are
 * looked up too, and only the answer of a {@code GET} request of a {@code stale} route is copied
 * as it is written ({@link StaleAnswers}). When something is shed it resolves the path exactly as
 * Spring MVC does ({@link ServletRequestPathUtils}), so that the filter and the controllers cannot
 * disagree about which route a request is. It must be registered after Spring Security, for the
 * {@code REQUEST} dispatcher type only, so that an unauthenticated request is refused before it
 * could see a fallback.
 *
 * <p>A request that was let through is answered with its route's fallback too when its handler
 * fails because a guarded call to a dependency the route requires got no answer (a
 * {@link DependencyUnavailableException} anywhere in the cause chain of an exception that the
 * application did not handle itself), as long as nothing of the answer was sent.
 */
public class DegradationFilter implements Filter {

	/**
	 * The default order: right after Spring Security's filter chain (order -100), before anything
	 * that would do work for a request that is about to be shed.
	 */
	public static final int DEFAULT_ORDER = RequestDecider.DEFAULT_ORDER;

	private final RequestDecider decider;

	private final boolean levelOnEveryAnswer;

	private final FormLimits formLimits;

	private final BodyTimer bodyTimer = new BodyTimer();

	/**
	 * Create a filter that carries out a decider's decisions, reading admitted forms within
	 * Tomcat's default limits.
	 * @param decider the request decision
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too (a public service may not want to show its state)
	 */
	public DegradationFilter(RequestDecider decider, boolean levelOnEveryAnswer) {
		this(decider, levelOnEveryAnswer, FormLimits.TOMCAT_DEFAULTS);
	}

	/**
	 * Create a filter that carries out a decider's decisions.
	 * @param decider the request decision
	 * @param levelOnEveryAnswer whether answers that are not degraded carry
	 * {@code X-Degradation-Level} too (a public service may not want to show its state)
	 * @param formLimits the server's own limits on a posted form, kept where the filter reads an
	 * admitted request's form itself
	 */
	public DegradationFilter(RequestDecider decider, boolean levelOnEveryAnswer, FormLimits formLimits) {
		this.decider = decider;
		this.levelOnEveryAnswer = levelOnEveryAnswer;
		this.formLimits = formLimits;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		try {
			new ServletLifecycle(this.decider, this.levelOnEveryAnswer, (HttpServletRequest) request,
					(HttpServletResponse) response, chain, this.formLimits, this.bodyTimer)
				.run();
		}
		catch (IOException | ServletException | RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new ServletException(ex);
		}
	}

	/**
	 * Stop the timer that gives places back while the server reads a body itself, if one started.
	 */
	@Override
	public void destroy() {
		this.bodyTimer.close();
	}

}

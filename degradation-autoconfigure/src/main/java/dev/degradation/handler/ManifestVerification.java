package dev.degradation.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.ManifestProblem;
import dev.degradation.manifest.VerificationMode;
import dev.degradation.web.HandlerRoute;
import dev.degradation.web.ManifestRouteCheck;

/**
 * Checks the manifest against the application's handlers (annotated request mappings and
 * functional {@code RouterFunction} routes, of Spring MVC as {@link MvcHandlerRoutes} reads them or
 * of WebFlux as {@link WebFluxHandlerRoutes} does) once every bean is ready: a manifest route that no
 * handler serves, and a route that would catch the requests of a more specific handler it does
 * not name, are warned about (or, with {@code degradation.verify=strict}, fail startup with their
 * position in the manifest); the handlers the manifest does not cover are listed once at DEBUG as
 * the core routes.
 *
 * <p>A test slice ({@code @WebMvcTest}, {@code @WebFluxTest}: a context whose auto-configuration
 * is overridden, {@code spring.boot.enableautoconfiguration=false}, and imported piecemeal) holds
 * only part of the application; when no route of the manifest matches any of its handlers, its
 * check is reported at INFO, in one line, instead of warning that every route is wrong. A full
 * application is warned about, as {@code warn} promises, however many routes miss; under
 * {@code strict} both fail.
 */
public class ManifestVerification implements SmartInitializingSingleton, EnvironmentAware {

	private static final Log logger = LogFactory.getLog(ManifestVerification.class);

	private final DegradationManifest manifest;

	private final Supplier<List<HandlerRoute>> handlers;

	private final VerificationMode mode;

	private boolean testSlice;

	/**
	 * Create a verification.
	 * @param manifest the manifest to check
	 * @param handlers the application's handlers, read once every bean is ready
	 * @param mode what to do with a route that no handler serves
	 */
	public ManifestVerification(DegradationManifest manifest, Supplier<List<HandlerRoute>> handlers,
			VerificationMode mode) {
		this.manifest = manifest;
		this.handlers = handlers;
		this.mode = mode;
	}

	/**
	 * Learn whether the context is a test slice: Spring Boot's slices turn auto-configuration off
	 * ({@value EnableAutoConfiguration#ENABLED_OVERRIDE_PROPERTY}{@code =false}) and import what they
	 * hold.
	 */
	@Override
	public void setEnvironment(Environment environment) {
		this.testSlice = !environment.getProperty(EnableAutoConfiguration.ENABLED_OVERRIDE_PROPERTY, Boolean.class,
				true);
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (this.mode == VerificationMode.OFF) {
			return;
		}
		List<HandlerRoute> handlers = this.handlers.get();
		if (handlers.isEmpty()) {
			return;
		}
		ManifestRouteCheck.Result result = ManifestRouteCheck.check(this.manifest, handlers);
		if (logger.isDebugEnabled()) {
			logger.debug("Core routes (not in the degradation manifest, never shed): " + result.coreHandlers()
				.stream()
				.map(HandlerRoute::toString)
				.collect(Collectors.joining(", ")));
		}
		if (result.unmatched().isEmpty() && result.shadowed().isEmpty()) {
			return;
		}
		List<ManifestProblem> problems = new ArrayList<>();
		result.shadowed().forEach((shadowed) -> problems.add(shadowed.problem(this.manifest.source())));
		result.unmatched().forEach((unmatched) -> problems.add(unmatched.problem(this.manifest.source())));
		InvalidManifestException exception = new InvalidManifestException(this.manifest.source(), problems);
		if (this.mode == VerificationMode.STRICT) {
			throw exception;
		}
		int routes = this.manifest.routes().size();
		if (this.testSlice && result.shadowed().isEmpty() && result.unmatched().size() == routes) {
			logger.info("None of the " + routes + " routes of the degradation manifest '" + this.manifest.source()
					+ "' matches one of the " + handlers.size() + " handlers of this test slice, which holds only part "
					+ "of the application, so no route is reported as unmatched ('degradation.verify=strict' reports "
					+ "them)");
			return;
		}
		String hint = (result.unmatched().size() == routes)
				? "\n(no route of the manifest matches a handler of this application: is it the manifest of another "
						+ "service, or are the handlers' paths under a prefix the manifest does not write?)"
				: "";
		logger.warn(exception.getMessage() + hint
				+ "\n(set 'degradation.verify=strict' to refuse to start instead, or 'off' not to check)");
	}

	/**
	 * Check a manifest that is to replace the active one (a reload) as startup checked the first,
	 * under the same mode: under {@code strict} its unmatched and shadowed routes refuse it; under
	 * {@code warn} they are logged and the reload goes on.
	 * @param replacement the manifest that is to become active
	 * @return the problems that refuse it, empty when it may become active
	 */
	public List<ManifestProblem> checkReplacement(DegradationManifest replacement) {
		if (this.mode == VerificationMode.OFF) {
			return List.of();
		}
		List<HandlerRoute> handlers = this.handlers.get();
		if (handlers.isEmpty()) {
			return List.of();
		}
		ManifestRouteCheck.Result result = ManifestRouteCheck.check(replacement, handlers);
		List<ManifestProblem> problems = new ArrayList<>();
		result.shadowed().forEach((shadowed) -> problems.add(shadowed.problem(replacement.source())));
		result.unmatched().forEach((unmatched) -> problems.add(unmatched.problem(replacement.source())));
		if (problems.isEmpty() || this.mode == VerificationMode.STRICT) {
			return problems;
		}
		logger.warn(new InvalidManifestException(replacement.source(), problems).getMessage()
				+ "\n(reloaded all the same; set 'degradation.verify=strict' to refuse such a reload instead)");
		return List.of();
	}

	/**
	 * Return the application's handlers as the manifest check reads them.
	 * @return the handlers
	 */
	public List<HandlerRoute> handlers() {
		return this.handlers.get();
	}

}

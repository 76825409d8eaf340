package dev.degradation.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.ManifestProblem;
import dev.degradation.web.HandlerRoute;
import dev.degradation.web.ManifestRouteCheck;

/**
 * Checks the manifest against the application's Spring MVC handlers (annotated request mappings
 * and functional {@code RouterFunction} routes) once every bean is ready: a manifest route that no
 * handler serves, and a route that would catch the requests of a more specific handler it does
 * not name, are warned about (or, with {@code degradation.verify=strict}, fail startup with their
 * position in the manifest); the handlers the manifest does not cover are listed once at DEBUG as
 * the core routes.
 *
 * <p>A context in which no route of the manifest matches any handler is taken for one that holds
 * only part of the application (a test that loads a few controllers, say): under {@code warn} its
 * check is reported at INFO, in one line, instead of warning that every route is wrong; under
 * {@code strict} it still fails.
 */
public class ManifestVerification implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(ManifestVerification.class);

	private final DegradationManifest manifest;

	private final Supplier<List<HandlerRoute>> handlers;

	private final DegradationProperties.Verify mode;

	/**
	 * Create a verification against the application's annotated request mappings.
	 * @param manifest the manifest to check
	 * @param mappings the application's handler mappings
	 * @param mode what to do with a route that no handler serves
	 */
	public ManifestVerification(DegradationManifest manifest, ObjectProvider<RequestMappingHandlerMapping> mappings,
			DegradationProperties.Verify mode) {
		this(manifest, () -> handlerRoutes(mappings.orderedStream()), mode);
	}

	/**
	 * Create a verification.
	 * @param manifest the manifest to check
	 * @param handlers the application's handlers, read once every bean is ready
	 * @param mode what to do with a route that no handler serves
	 */
	public ManifestVerification(DegradationManifest manifest, Supplier<List<HandlerRoute>> handlers,
			DegradationProperties.Verify mode) {
		this.manifest = manifest;
		this.handlers = handlers;
		this.mode = mode;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (this.mode == DegradationProperties.Verify.OFF) {
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
		if (this.mode == DegradationProperties.Verify.STRICT) {
			throw exception;
		}
		int routes = this.manifest.routes().size();
		if (result.shadowed().isEmpty() && result.unmatched().size() == routes) {
			logger.info("None of the " + routes + " routes of the degradation manifest '" + this.manifest.source()
					+ "' matches one of the " + handlers.size() + " handlers of this application context: taken for a "
					+ "context that holds only part of the application (a test slice, say), so no route is reported "
					+ "as unmatched ('degradation.verify=strict' reports them)");
			return;
		}
		logger.warn(exception.getMessage() + "\n(set 'degradation.verify=strict' to refuse to start instead)");
	}

	/**
	 * Return the application's handlers as the manifest check reads them.
	 * @return the handlers
	 */
	public List<HandlerRoute> handlers() {
		return this.handlers.get();
	}

	/**
	 * Return the request mappings of Spring MVC's handler mappings as the manifest check reads
	 * them: one for each pattern of each handler method.
	 * @param mappings the handler mappings
	 * @return the request mappings
	 */
	public static List<HandlerRoute> handlerRoutes(Stream<RequestMappingHandlerMapping> mappings) {
		List<HandlerRoute> handlers = new ArrayList<>();
		mappings.forEach((mapping) -> mapping.getHandlerMethods().forEach((info, method) -> {
			Set<String> methods = methods(info);
			for (String pattern : info.getPatternValues()) {
				handlers.add(new HandlerRoute(methods, pattern, method.getShortLogMessage()));
			}
		}));
		return handlers;
	}

	/**
	 * Return the routes of Spring MVC's functional endpoints as the manifest check reads them: one
	 * for each path of each route of each {@code RouterFunction}.
	 * @param mappings the router function mappings
	 * @return the routes
	 */
	public static List<HandlerRoute> functionalRoutes(Stream<RouterFunctionMapping> mappings) {
		List<HandlerRoute> handlers = new ArrayList<>();
		mappings.forEach((mapping) -> {
			RouterFunction<?> function = mapping.getRouterFunction();
			if (function != null) {
				handlers.addAll(FunctionalRoutes.of(function));
			}
		});
		return handlers;
	}

	private static Set<String> methods(RequestMappingInfo info) {
		return info.getMethodsCondition()
			.getMethods()
			.stream()
			.map((method) -> method.name().toUpperCase(Locale.ROOT))
			.collect(Collectors.toSet());
	}

}

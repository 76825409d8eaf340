package dev.degradation.client;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;

/**
 * Warns at startup of Resilience4j's own {@code @CircuitBreaker} annotation named after a
 * dependency of the manifest. With Resilience4j's Boot integration the dependency's guard keeps
 * its breaker in Resilience4j's registry under the dependency's name, so the annotation takes
 * that very breaker: every call through the annotated method and the guarded call inside it
 * count twice, and the annotation's {@code fallbackMethod} answers a refused call before the
 * route's declared fallback, with an answer nothing marks as reduced. Nothing else would say so.
 * The annotation is found by name, so that an application without Resilience4j's annotations
 * loads nothing of them; only the application's own classes are searched.
 */
public final class AnnotatedBreakerCheck implements SmartInitializingSingleton {

	/** Resilience4j's annotation, named rather than loaded. */
	public static final String ANNOTATION = "io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker";

	private static final Log logger = LogFactory.getLog(AnnotatedBreakerCheck.class);

	private final ListableBeanFactory beans;

	private final DegradationManifest manifest;

	/**
	 * Create a check.
	 * @param beans the application's beans, whose classes are searched
	 * @param manifest the manifest whose dependencies' names are looked for
	 */
	public AnnotatedBreakerCheck(ListableBeanFactory beans, DegradationManifest manifest) {
		this.beans = beans;
		this.manifest = manifest;
	}

	@Override
	public void afterSingletonsInstantiated() {
		overlaps().forEach(logger::warn);
	}

	/**
	 * Return a warning for every {@code @CircuitBreaker} of the application's beans named after a
	 * dependency of the manifest.
	 * @return the warnings, empty when there is no such annotation
	 */
	List<String> overlaps() {
		Set<String> dependencies = this.manifest.dependencies()
			.stream()
			.map(Dependency::name)
			.collect(Collectors.toSet());
		List<String> warnings = new ArrayList<>();
		if (dependencies.isEmpty()) {
			return warnings;
		}
		Set<Class<?>> searched = new HashSet<>();
		for (String name : this.beans.getBeanDefinitionNames()) {
			Class<?> type = this.beans.getType(name, false);
			if (type == null) {
				continue;
			}
			type = ClassUtils.getUserClass(type);
			if (!searched.add(type) || !applicationClass(type) || !AnnotationUtils.isCandidateClass(type, ANNOTATION)) {
				continue;
			}
			Class<?> searchedType = type;
			try {
				check(MergedAnnotations.from(type, SearchStrategy.TYPE_HIERARCHY).get(ANNOTATION),
						searchedType.getSimpleName(), dependencies, warnings);
				ReflectionUtils.doWithMethods(type,
						(method) -> check(MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY).get(ANNOTATION),
								searchedType.getSimpleName() + "." + method.getName(), dependencies, warnings),
						ReflectionUtils.USER_DECLARED_METHODS);
			}
			catch (IllegalStateException | LinkageError ex) {
				// A class whose methods name a type that is not on the class path: Spring's own
				// annotation processing passes it by the same way, and a warning must not fail
				// a start.
				logger.debug("Could not search " + type.getName() + " for @CircuitBreaker", ex);
			}
		}
		return warnings;
	}

	private static void check(MergedAnnotation<?> annotation, String where, Set<String> dependencies,
			List<String> warnings) {
		if (!annotation.isPresent()) {
			return;
		}
		String name = annotation.getString("name");
		if (!dependencies.contains(name)) {
			return;
		}
		String fallback = annotation.getString("fallbackMethod");
		warnings.add("Resilience4j's @CircuitBreaker(name = \"" + name + "\") on " + where
				+ " names the manifest's dependency '" + name + "', whose guard keeps its breaker under that name: "
				+ "each call through both is counted twice"
				+ (fallback.isEmpty() ? ""
						: ", and its fallbackMethod '" + fallback + "' answers a refused call before the route's "
								+ "declared fallback, unmarked as reduced")
				+ "; the guard already breaks, and falls back, for calls to '" + name
				+ "': remove the annotation, or name its breaker otherwise");
	}

	/** Spring's, Resilience4j's and the JDK's own classes carry no application annotation. */
	private static boolean applicationClass(Class<?> type) {
		String name = type.getName();
		return !name.startsWith("org.springframework.") && !name.startsWith("io.github.resilience4j.")
				&& !name.startsWith("java.");
	}

}

package dev.degradation.architecture;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatchers;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/**
 * The rule that lets an application with one web stack on its class path start: no class of the
 * core, and no class that touches one stack's types, reaches the other stack's types, whether it
 * refers to them itself or through a class of the starter it uses (a functional-route reader that
 * implemented both stacks' visitors in one class stopped MVC-only and WebFlux-only applications
 * from starting). Reactor counts as the reactive stack: an MVC-only application need not have it.
 * {@link LayerTests} checks the direct dependencies between packages; this follows the starter's
 * own classes transitively.
 */
class StackIsolationTests {

	private static final JavaClasses starter = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.degradation");

	private static final List<String> SERVLET = List.of("jakarta.servlet..", "org.springframework.web.servlet..");

	private static final List<String> REACTIVE = List.of("org.springframework.web.reactive..",
			"org.springframework.web.server..", "org.springframework.http.server.reactive..", "reactor..");

	private static final String[] CORE = { "dev.degradation.manifest..", "dev.degradation.monitor..",
			"dev.degradation.overload..", "dev.degradation.engine..", "dev.degradation.web" };

	@Test
	void theCoreReachesNeitherStack() {
		classes().that()
			.resideInAnyPackage(CORE)
			.should(reachNoTypeOf("the servlet stack", SERVLET))
			.andShould(reachNoTypeOf("the reactive stack", REACTIVE))
			.check(starter);
	}

	@Test
	void aClassOfTheServletStackReachesNoReactiveType() {
		classes().that(referTo(SERVLET)).should(reachNoTypeOf("the reactive stack", REACTIVE)).check(starter);
	}

	@Test
	void aClassOfTheReactiveStackReachesNoServletType() {
		classes().that(referTo(REACTIVE)).should(reachNoTypeOf("the servlet stack", SERVLET)).check(starter);
	}

	@Test
	void theRuleSeesAStackTypeReachedThroughAnotherClassOfTheStarter() {
		// The check itself, on two classes of this test: one that refers to the reactive stack, one
		// that touches the servlet stack only through it.
		JavaClasses sabotage = new ClassFileImporter().importClasses(ServletSide.class, ReactiveHelper.class);
		ConditionEvents events = ConditionEvents.Factory.create();
		reachNoTypeOf("the reactive stack", REACTIVE).check(sabotage.get(ServletSide.class), events);
		org.assertj.core.api.Assertions.assertThat(events.containViolation()).isTrue();
		org.assertj.core.api.Assertions.assertThat(events.getViolating().iterator().next().getDescriptionLines())
			.anySatisfy((line) -> org.assertj.core.api.Assertions.assertThat(line)
				.contains(ReactiveHelper.class.getName())
				.contains("reactor.core.publisher.Mono"));
	}

	private static DescribedPredicate<JavaClass> referTo(List<String> stack) {
		return DescribedPredicate.describe("refer to " + stack,
				(javaClass) -> !stackDependencies(javaClass, stack).isEmpty());
	}

	private static ArchCondition<JavaClass> reachNoTypeOf(String name, List<String> stack) {
		return new ArchCondition<>("reach no type of " + name + " " + stack + ", directly or through the starter") {

			@Override
			public void check(JavaClass origin, ConditionEvents events) {
				Set<JavaClass> seen = new HashSet<>();
				Deque<JavaClass> toVisit = new ArrayDeque<>();
				toVisit.add(origin);
				seen.add(origin);
				while (!toVisit.isEmpty()) {
					JavaClass current = toVisit.poll();
					for (Dependency dependency : stackDependencies(current, stack)) {
						String via = (current == origin) ? "" : " (through " + current.getName() + ")";
						events.add(SimpleConditionEvent.violated(origin,
								origin.getName() + " reaches " + dependency.getTargetClass().getName() + via + ": "
										+ dependency.getDescription()));
					}
					for (Dependency dependency : current.getDirectDependenciesFromSelf()) {
						JavaClass target = dependency.getTargetClass().getBaseComponentType();
						if (target.getPackageName().startsWith("dev.degradation") && seen.add(target)) {
							toVisit.add(target);
						}
					}
				}
			}

		};
	}

	private static List<Dependency> stackDependencies(JavaClass javaClass, List<String> stack) {
		PackageMatchers matchers = PackageMatchers.of(stack);
		return javaClass.getDirectDependenciesFromSelf()
			.stream()
			.filter((dependency) -> matchers.test(dependency.getTargetClass().getBaseComponentType().getPackageName()))
			.toList();
	}

	/**
	 * A class that touches the servlet stack and the reactive one only through a class it uses.
	 */
	static final class ServletSide {

		Object handle(jakarta.servlet.ServletRequest request) {
			return ReactiveHelper.answer();
		}

	}

	/**
	 * A class that refers to Reactor.
	 */
	static final class ReactiveHelper {

		static Object answer() {
			return reactor.core.publisher.Mono.empty();
		}

	}

}

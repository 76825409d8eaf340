package dev.degradation.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Annotation for a test class that exercises graceful degradation: it brings the degradation
 * filter, the engine and the route table into a {@code @WebMvcTest} slice (where MockMvc then
 * runs the filter), and in any Spring test it
 * <ul>
 * <li>puts the engine back as it started before and after each test ({@link DegradationExtension}),
 * so that a simulated level, a forced dependency or a hysteresis never leaks into the next test
 * of a cached context;</li>
 * <li>switches the dependency probes off unless {@link #probes()} asks for them, so that
 * dependencies that CI cannot reach never shed routes by themselves;</li>
 * <li>switches the startup check of the manifest against the handlers off
 * ({@code degradation.verify=off}): a slice holds only some of the controllers, and the
 * {@linkplain dev.degradation.test.contract.DegradationContractTests contract tests} report each
 * route that no handler serves as a failing test, with its position, instead of failing the
 * context of every test that shares it;</li>
 * <li>gives the engine a {@link DegradationTestClock} when the application has no {@code Clock}
 * bean of its own, so that a test moves time past a hysteresis instead of waiting for it.</li>
 * </ul>
 * Both properties are defaults: a test that sets {@code degradation.probes.enabled} or
 * {@code degradation.verify} itself (test properties, system properties, environment variables)
 * keeps its value.
 *
 * @see dev.degradation.test.contract.DegradationContractTests
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@ExtendWith(DegradationExtension.class)
public @interface AutoConfigureDegradation {

	/**
	 * Whether the starter probes the manifest's dependencies during the test, as it does in
	 * production. Off by default: with probes off every dependency stays {@code UNKNOWN} unless a
	 * test forces it, and only the test sheds. The probes belong to the application context, which
	 * the test framework caches per configuration, so this is a choice per test class.
	 * @return whether the dependencies are probed
	 */
	boolean probes() default false;

}

package dev.degradation.test;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Gives the test classes annotated with {@link AutoConfigureDegradation @AutoConfigureDegradation}
 * (on the class, a superclass or an enclosing class) their test defaults. Registered in
 * {@code META-INF/spring.factories}.
 */
class DegradationTestContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		AutoConfigureDegradation annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass,
				AutoConfigureDegradation.class);
		return (annotation != null) ? new DegradationTestContextCustomizer(annotation.probes()) : null;
	}

}

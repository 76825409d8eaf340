package dev.degradation.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks a test class that only {@link TestKit} runs, because it is meant to fail: a broken
 * variant of an application, whose failures a test of this module asserts. Skipped when an IDE or
 * the build runs it on its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(OnlyInTestKit.Condition.class)
public @interface OnlyInTestKit {

	/**
	 * Enables the test class only when {@link TestKit} sets its configuration parameter.
	 */
	class Condition implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			return context.getConfigurationParameter(TestKit.PARAMETER, Boolean::parseBoolean).orElse(false)
					? ConditionEvaluationResult.enabled("run by the test kit")
					: ConditionEvaluationResult.disabled("meant to fail; run by a test of this module through TestKit");
		}

	}

}

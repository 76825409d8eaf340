package dev.degradation.sample.extras;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a failed dependency call with {@code 502 Bad Gateway}: the extras do not invent
 * fallbacks of their own, so that what a shed feature answers is decided in one place, the
 * degradation manifest.
 */
@RestControllerAdvice(basePackageClasses = DependencyFailureAdvice.class)
public class DependencyFailureAdvice {

	@ExceptionHandler
	ProblemDetail dependencyUnavailable(DependencyUnavailableException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY,
				"Dependency '" + ex.dependency() + "' is unavailable");
		problem.setProperty("dependency", ex.dependency());
		return problem;
	}

}

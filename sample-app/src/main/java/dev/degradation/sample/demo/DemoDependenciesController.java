package dev.degradation.sample.demo;

import java.net.URI;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.degradation.sample.embedded.DependencyMode;
import dev.degradation.sample.embedded.EmbeddedDependencies;
import dev.degradation.sample.embedded.EmbeddedDependency;

/**
 * DEMO ONLY: lists the embedded dependencies and switches one between healthy and broken
 * ({@code PUT /demo/dependencies/recommendations-api} with {@code {"mode": "hanging"}}).
 *
 * <p>It exists so that the sample can show, with curl and nothing else, what the degradation
 * starter does when a dependency fails, hangs, refuses connections or slows down: the starter's
 * probes see the fault, the routes that need the dependency are shed, and they come back once it
 * recovers. A real service has no such API; this one is unsecured and lets anyone break the
 * shop's features. Dependencies that are not embedded (their URL is configured) are not listed.
 */
@RestController
@RequestMapping("/demo/dependencies")
public class DemoDependenciesController {

	private static final List<String> MODES = Arrays.stream(DependencyMode.values())
		.map((mode) -> mode.name().toLowerCase(Locale.ROOT))
		.toList();

	private final ObjectProvider<EmbeddedDependencies> dependencies;

	DemoDependenciesController(ObjectProvider<EmbeddedDependencies> dependencies) {
		this.dependencies = dependencies;
	}

	/**
	 * List the embedded dependencies.
	 * @return each with its mode and port
	 */
	@GetMapping
	List<DependencyView> dependencies() {
		EmbeddedDependencies embedded = this.dependencies.getIfAvailable();
		return (embedded != null) ? embedded.dependencies().stream().map(DependencyView::of).toList() : List.of();
	}

	/**
	 * Show one embedded dependency.
	 * @param name the dependency name
	 * @return its mode and port
	 */
	@GetMapping("/{name}")
	DependencyView dependency(@PathVariable String name) {
		return DependencyView.of(find(name));
	}

	/**
	 * Switch an embedded dependency to another mode.
	 * @param name the dependency name
	 * @param change the new mode
	 * @return the dependency after the switch
	 */
	@PutMapping("/{name}")
	DependencyView switchMode(@PathVariable String name, @RequestBody ModeChange change) {
		EmbeddedDependency dependency = find(name);
		dependency.switchTo(parse(change.mode()));
		return DependencyView.of(dependency);
	}

	@ExceptionHandler
	ProblemDetail unknownDependency(NoSuchElementException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
		problem.setProperty("dependencies", dependencies().stream().map(DependencyView::name).toList());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail unknownMode(UnknownModeException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
		problem.setProperty("allowed", MODES);
		return problem;
	}

	@ExceptionHandler
	ProblemDetail cannotSwitch(IllegalStateException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
	}

	private EmbeddedDependency find(String name) {
		EmbeddedDependencies embedded = this.dependencies.getIfAvailable();
		if (embedded == null) {
			throw new NoSuchElementException("No embedded dependency '" + name + "': every dependency URL is configured");
		}
		return embedded.dependency(name);
	}

	private static DependencyMode parse(@Nullable String mode) {
		if (mode == null || !MODES.contains(mode.trim().toLowerCase(Locale.ROOT))) {
			throw new UnknownModeException("'mode' must be one of " + String.join(", ", MODES) + ", but was "
					+ ((mode != null) ? "'" + mode + "'" : "missing"));
		}
		return DependencyMode.valueOf(mode.trim().toUpperCase(Locale.ROOT));
	}

	/**
	 * The body of a switch.
	 *
	 * @param mode the new mode, such as {@code hanging}
	 */
	record ModeChange(@Nullable String mode) {

	}

	/**
	 * An embedded dependency as the demo shows it.
	 *
	 * @param name the dependency name
	 * @param mode its mode, such as {@code healthy}
	 * @param since when it switched to that mode
	 * @param port the port it listens on, on 127.0.0.1 (or will again, while refusing)
	 * @param url its base URL; the health endpoint is {@code <url>/healthz}
	 * @param heldRequests how many requests it holds unanswered now (hanging or slow)
	 * @param slowDelayMs how long it takes to answer when slow
	 */
	record DependencyView(String name, String mode, Instant since, int port, URI url, int heldRequests,
			long slowDelayMs) {

		static DependencyView of(EmbeddedDependency dependency) {
			return new DependencyView(dependency.name(), dependency.mode().name().toLowerCase(Locale.ROOT),
					dependency.modeSince(), dependency.port(), dependency.url(), dependency.heldRequests(),
					dependency.slowDelay().toMillis());
		}

	}

	/**
	 * A mode that does not exist.
	 */
	static final class UnknownModeException extends RuntimeException {

		UnknownModeException(String message) {
			super(message);
		}

	}

}

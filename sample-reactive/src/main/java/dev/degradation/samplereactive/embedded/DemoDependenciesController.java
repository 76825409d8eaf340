package dev.degradation.samplereactive.embedded;

import java.time.Duration;
import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * DEMO ONLY: makes an embedded dependency fail or answer again, so that the starter's reaction
 * (probes fail, the dependency is judged failed, the routes that require it are shed) can be
 * watched with curl. A real service has nothing like it.
 */
@RestController
@ConditionalOnBean(EmbeddedDependencies.class)
public class DemoDependenciesController {

	private final EmbeddedDependencies dependencies;

	/**
	 * Create the controller.
	 * @param dependencies the embedded dependencies
	 */
	public DemoDependenciesController(EmbeddedDependencies dependencies) {
		this.dependencies = dependencies;
	}

	/**
	 * Every embedded dependency and whether it fails.
	 * @return one line per dependency
	 */
	@GetMapping("/demo/dependencies")
	public Mono<List<String>> list() {
		return Mono.fromSupplier(() -> this.dependencies.all().stream().map(EmbeddedDependency::toString).toList());
	}

	/**
	 * Make a dependency fail or answer again, and slow down its data answers or not.
	 * @param name the dependency's name
	 * @param failing whether it fails; unchanged when absent
	 * @param delayMs how long it waits before a data answer (not its health check), 0 for not at
	 * all; unchanged when absent
	 * @return the dependency, as it now is
	 */
	@PostMapping("/demo/dependencies/{name}")
	public Mono<String> set(@PathVariable String name, @RequestParam(required = false) Boolean failing,
			@RequestParam(required = false) Long delayMs) {
		return Mono.fromSupplier(() -> {
			EmbeddedDependency dependency = this.dependencies.get(name);
			if (failing != null) {
				dependency.failing(failing);
			}
			if (delayMs != null) {
				dependency.delay(Duration.ofMillis(delayMs));
			}
			return dependency.toString();
		});
	}

}

package dev.degradation.test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Adds the test defaults of {@link AutoConfigureDegradation} to the environment of a test's
 * application context. Part of the context's cache key: tests with and without probes get
 * contexts of their own.
 *
 * @param probes whether the dependencies are probed
 */
record DegradationTestContextCustomizer(boolean probes) implements ContextCustomizer {

	static final String PROPERTY_SOURCE_NAME = "degradationTestDefaults";

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		Map<String, Object> defaults = new LinkedHashMap<>();
		if (!this.probes) {
			defaults.put("degradation.probes.enabled", "false");
		}
		defaults.put("degradation.verify", "off");
		// A test's own requests may simulate for themselves (SimulatedRequests), with a token of
		// this context's own.
		defaults.put("degradation.simulation.requests.enabled", "true");
		defaults.put("degradation.simulation.requests.token", UUID.randomUUID().toString());
		MapPropertySource source = new MapPropertySource(PROPERTY_SOURCE_NAME, defaults);
		// Above the application's configuration files, which may well say 'strict' for production,
		// and below everything a test or a CI run sets explicitly.
		MutablePropertySources sources = context.getEnvironment().getPropertySources();
		if (sources.contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
			sources.addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, source);
		}
		else {
			sources.addLast(source);
		}
	}

}

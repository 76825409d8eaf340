package dev.degradation.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

import dev.degradation.client.UnboundedClient;

/**
 * The resources a native image of an application with the starter must hold: the manifest at its
 * default location ({@code degradation-manifest.yaml}, read at startup) and the starter's own
 * (the manifest's JSON Schema and the status page, under {@code META-INF/degradation/}). A native
 * image holds only the resources it is told of; without these the starter would find no manifest
 * and stay inactive. A manifest at another location needs the application's own hint. The
 * timeouts of Spring's JDK and {@code HttpURLConnection} request factories, which the starter sets
 * per guarded request on the factories the application builds itself, and the endpoint's list of
 * the clients it cannot bound, are registered for reflection.
 */
class DegradationRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern("degradation-manifest.yaml");
		hints.resources().registerPattern("META-INF/degradation/**");
		hints.reflection()
			.registerType(JdkClientHttpRequestFactory.class, (type) -> type.withField("readTimeout"))
			.registerType(SimpleClientHttpRequestFactory.class,
					(type) -> type.withField("connectTimeout").withField("readTimeout"));
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), UnboundedClient.class);
	}

}

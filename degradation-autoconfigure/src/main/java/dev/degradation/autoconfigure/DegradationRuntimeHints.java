package dev.degradation.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The resources a native image of an application with the starter must hold: the manifest at its
 * default location ({@code degradation-manifest.yaml}, read at startup) and the starter's own
 * (the manifest's JSON Schema and the status page, under {@code META-INF/degradation/}). A native
 * image holds only the resources it is told of; without these the starter would find no manifest
 * and stay inactive. A manifest at another location needs the application's own hint.
 */
class DegradationRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern("degradation-manifest.yaml");
		hints.resources().registerPattern("META-INF/degradation/**");
	}

}

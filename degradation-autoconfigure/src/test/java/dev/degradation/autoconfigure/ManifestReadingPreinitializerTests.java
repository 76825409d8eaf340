package dev.degradation.autoconfigure;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;

import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.dataformat.yaml.YAMLParser;

import org.springframework.boot.autoconfigure.preinitialize.BackgroundPreinitializer;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.degradation.manifest.DegradationManifest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot finds the warm-up of the manifest's reading, and the warm-up's manifest is one the
 * starter reads through every section: a manifest the reading refused would warm up only part of
 * it, and no start would say so.
 */
class ManifestReadingPreinitializerTests {

	@Test
	void springBootRunsTheWarmUpOnItsBackgroundThread() {
		assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(BackgroundPreinitializer.class))
			.hasAtLeastOneElementOfType(ManifestReadingPreinitializer.class);
	}

	@Test
	void theWarmUpLoadsTheYamlParserAndTheManifestsModel() throws Exception {
		try (WarmUpLoader loader = new WarmUpLoader()) {
			Constructor<?> warmUp = loader.loadClass(ManifestReadingPreinitializer.class.getName())
				.getDeclaredConstructor();
			Method preinitialize = warmUp.getDeclaringClass().getMethod("preinitialize");
			// Package-private, and in a package of another class loader than this test's.
			warmUp.setAccessible(true);
			preinitialize.setAccessible(true);
			preinitialize.invoke(warmUp.newInstance());
			assertThat(loader.loaded(YAMLParser.class)).isTrue();
			assertThat(loader.loaded(LoadSettings.class)).isTrue();
			assertThat(loader.loaded(DegradationManifest.class)).isTrue();
		}
	}

	@Test
	void theWarmUpsManifestIsReadThroughEverySection() {
		DegradationManifest manifest = ManifestReadingPreinitializer.read();
		assertThat(manifest.dependency("inventory")).isPresent();
		assertThat(manifest.routes()).hasSize(2);
		assertThat(manifest.overload()).isNotNull();
	}

	/**
	 * Loads the starter's classes, the YAML parser's and snakeyaml-engine's itself, so that what a
	 * warm-up loaded is seen apart from what the test's own class path already has.
	 */
	private static final class WarmUpLoader extends URLClassLoader {

		WarmUpLoader() {
			super(new URL[] { location(ManifestReadingPreinitializer.class), location(YAMLParser.class),
					location(LoadSettings.class) }, ManifestReadingPreinitializerTests.class.getClassLoader());
		}

		boolean loaded(Class<?> type) {
			synchronized (getClassLoadingLock(type.getName())) {
				return findLoadedClass(type.getName()) != null;
			}
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (!name.startsWith("dev.degradation.") && !name.startsWith("tools.jackson.dataformat.yaml.")
					&& !name.startsWith("org.snakeyaml.")) {
				return super.loadClass(name, resolve);
			}
			synchronized (getClassLoadingLock(name)) {
				Class<?> type = findLoadedClass(name);
				return (type != null) ? type : findClass(name);
			}
		}

		private static URL location(Class<?> type) {
			return type.getProtectionDomain().getCodeSource().getLocation();
		}

	}

}

package dev.degradation.autoconfigure;

import org.junit.jupiter.api.Test;

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
	void theWarmUpsManifestIsReadThroughEverySection() {
		DegradationManifest manifest = ManifestReadingPreinitializer.read();
		assertThat(manifest.dependency("inventory")).isPresent();
		assertThat(manifest.routes()).hasSize(2);
		assertThat(manifest.overload()).isNotNull();
	}

}

package dev.degradation.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotatedTypeMetadata;

import dev.degradation.reload.ManifestLocation;

/**
 * Matches when there is a manifest to load: it exists, or its location is not optional (so that
 * a missing one fails startup instead of silently disabling degradation).
 */
class OnManifestCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ConditionMessage.Builder message = ConditionMessage.forCondition("Degradation manifest");
		ManifestLocation location = ManifestLocation.of(context.getEnvironment());
		if (!location.optional()) {
			return ConditionOutcome.match(message.because("'" + location.location() + "' is required"));
		}
		ResourceLoader resourceLoader = (context.getResourceLoader() != null) ? context.getResourceLoader()
				: new DefaultResourceLoader(context.getClassLoader());
		if (location.resolve(resourceLoader).exists()) {
			return ConditionOutcome.match(message.found("manifest").items(location.location()));
		}
		return ConditionOutcome.noMatch(message.didNotFind("manifest").items(location.location()));
	}

}

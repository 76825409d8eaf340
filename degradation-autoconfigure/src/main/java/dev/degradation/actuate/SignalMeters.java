package dev.degradation.actuate;

import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.degradation.manifest.DegradationManifest;

/**
 * The meters a shed signal adds to the degradation meters, such as admission's
 * {@code degradation.overload.*}. A {@link dev.degradation.engine.ShedSignal ShedSignal} of the
 * application may implement it itself; a bean of this type contributes for a signal that cannot
 * (the engine's signals know nothing of Micrometer). The {@link DegradationMeterBinder} binds them
 * for the active manifest, and again for the new one after a reload, so that their tags always
 * name what the active manifest declares.
 */
@FunctionalInterface
public interface SignalMeters {

	/**
	 * Register this signal's meters for a manifest.
	 * @param registry the registry
	 * @param manifest the active manifest
	 * @return the meters registered, removed from the registry when the manifest is replaced
	 */
	List<Meter> bindTo(MeterRegistry registry, DegradationManifest manifest);

}

package dev.degradation.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.degradation.engine.OverloadSignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Tier;
import dev.degradation.overload.Admission;

/**
 * The meters of the {@link OverloadSignal overload signal}: admission under load, only while the
 * manifest has an {@code overload} section (and admission is not switched off). They read the
 * signal's current admission, so that a reload needs no new gauges for the same figures.
 *
 * <ul>
 * <li>{@code degradation.overload.limit}, {@code .inflight}, {@code .waiting}: gauges</li>
 * <li>{@code degradation.overload.queue}: the time core requests waited for a place</li>
 * <li>{@code degradation.overload.requests}: requests by what admission decided (tags
 * {@code tier}, {@code outcome}), one {@code shed} counter a tier of the manifest</li>
 * </ul>
 */
public final class OverloadMeters implements SignalMeters {

	private final OverloadSignal overload;

	/**
	 * Create the meters of a signal.
	 * @param overload the signal
	 */
	public OverloadMeters(OverloadSignal overload) {
		this.overload = overload;
	}

	@Override
	public List<Meter> bindTo(MeterRegistry registry, DegradationManifest manifest) {
		List<Meter> meters = new ArrayList<>();
		if (manifest.overload() == null) {
			return meters;
		}
		OverloadSignal overload = this.overload;
		meters.add(Gauge.builder("degradation.overload.limit", overload, (o) -> read(o, Admission::limit))
			.description("Concurrency limit of admission")
			.register(registry));
		meters.add(Gauge.builder("degradation.overload.inflight", overload, (o) -> read(o, Admission::inflight))
			.description("Requests admitted and not yet answered")
			.register(registry));
		meters.add(Gauge.builder("degradation.overload.waiting", overload, (o) -> read(o, Admission::waiting))
			.description("Core requests waiting for a place")
			.register(registry));
		meters.add(FunctionTimer.builder("degradation.overload.queue", overload, (o) -> (long) read(o, Admission::waits),
				(o) -> read(o, Admission::waitedNanos), TimeUnit.NANOSECONDS)
			.description("Time core requests waited for a place")
			.register(registry));
		meters.add(FunctionCounter.builder("degradation.overload.requests", overload, (o) -> read(o, Admission::admitted))
			.description("Requests by what admission decided")
			.tag("tier", "any")
			.tag("outcome", "admitted")
			.register(registry));
		meters.add(FunctionCounter.builder("degradation.overload.requests", overload, (o) -> read(o, Admission::refused))
			.description("Requests by what admission decided")
			.tag("tier", "core")
			.tag("outcome", "refused")
			.register(registry));
		meters.add(FunctionCounter.builder("degradation.overload.requests", overload,
				(o) -> read(o, Admission::refusedForDeadline))
			.description("Requests by what admission decided")
			.tag("tier", "any")
			.tag("outcome", "deadline")
			.register(registry));
		for (Tier tier : manifest.tiers()) {
			meters.add(FunctionCounter.builder("degradation.overload.requests", overload, (o) -> {
				Admission admission = o.admission();
				return (admission != null) ? admission.shed(o.rank(tier.priority())) : 0;
			})
				.description("Requests by what admission decided")
				.tag("tier", tier.name())
				.tag("outcome", "shed")
				.register(registry));
		}
		return meters;
	}

	private static double read(OverloadSignal overload, ToDoubleFunction<Admission> value) {
		Admission admission = overload.admission();
		return (admission != null) ? value.applyAsDouble(admission) : 0;
	}

}

package dev.degradation.testapp;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.degradation.engine.DegradationListener;
import dev.degradation.monitor.ProbeResult;

/**
 * Records every probe result the engine receives, per dependency, so that a test can look at
 * probe timing.
 */
public class ProbeRecorder implements DegradationListener {

	private final Map<String, List<ProbeResult>> results = new ConcurrentHashMap<>();

	@Override
	public void probed(String dependency, ProbeResult result) {
		this.results.computeIfAbsent(dependency, (name) -> new CopyOnWriteArrayList<>()).add(result);
	}

	public List<ProbeResult> results(String dependency) {
		return List.copyOf(this.results.getOrDefault(dependency, List.of()));
	}

	public int total() {
		return this.results.values().stream().mapToInt(List::size).sum();
	}

}

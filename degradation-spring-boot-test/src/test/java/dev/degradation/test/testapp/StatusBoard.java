package dev.degradation.test.testapp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.HealthSourceKey;
import dev.degradation.monitor.DependencyHealthSource;
import dev.degradation.monitor.ProbeResult;

/**
 * A status board that operators of the tests' shop set by hand, line by line, and the health
 * source that judges a dependency by its line: a dependency writes
 * {@code status_board_line: <line>} in the manifest instead of a {@code health_url}. Only the
 * tests declare it, as an application would declare a source of its own (a broker's lag, a pool's
 * state).
 */
public class StatusBoard {

	private final Map<String, Boolean> lines = new ConcurrentHashMap<>();

	/**
	 * Say whether a line is up; a line never set is up.
	 * @param line the line
	 * @param up whether it is up
	 */
	public void set(String line, boolean up) {
		this.lines.put(line, up);
	}

	boolean isUp(String line) {
		return this.lines.getOrDefault(line, true);
	}

	/**
	 * The health source of the dependencies that write {@code status_board_line}.
	 */
	public static class Source implements DependencyHealthSource {

		/** The key a dependency writes to be judged by its line. */
		public static final HealthSourceKey KEY = new HealthSourceKey("status_board_line",
				"the line of the status board that says whether the dependency is up");

		private final StatusBoard board;

		private final Clock clock;

		/**
		 * Create the source.
		 * @param board the board it reads
		 * @param clock the clock that stamps its results
		 */
		public Source(StatusBoard board, Clock clock) {
			this.board = board;
			this.clock = clock;
		}

		@Override
		public @Nullable HealthSourceKey manifestKey() {
			return KEY;
		}

		@Override
		public boolean supports(Dependency dependency) {
			return dependency.sourceKey(KEY.name()) != null;
		}

		@Override
		public ProbeResult probe(Dependency dependency) {
			String line = String.valueOf(dependency.sourceKey(KEY.name()));
			boolean up = this.board.isUp(line);
			return new ProbeResult(up, up ? ProbeResult.OK : ProbeResult.DOWN,
					"status board line '" + line + "' is " + (up ? "up" : "down"), Instant.now(this.clock),
					Duration.ZERO);
		}

	}

}

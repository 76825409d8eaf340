package dev.degradation.monitor;

import java.io.IOException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import dev.degradation.manifest.Dependency;

/**
 * Probes a dependency with an HTTP GET of its {@code health_url}: healthy on a 2xx status line
 * within {@code timeout_ms}; a {@code 404} is a health URL that is not served, which is no
 * evidence either way ({@link ProbeResult#NOT_FOUND}).
 *
 * <p>Uses {@link HttpURLConnection} on the calling (probe) thread, with the connection closed
 * after every probe: no connection pool, no keep-alive thread, and no selector thread that
 * outlives the application (the JDK 17 {@code HttpClient} keeps one until it is garbage
 * collected). The connect and read timeouts are both the dependency's timeout; the scheduler's
 * deadline ({@link #abort(Thread)}) closes the socket when connecting and reading together take
 * longer, so the timeout is one budget for the whole probe.
 */
public final class HttpHealthProbe implements HealthProbe {

	private final Clock clock;

	private final Map<Thread, Probe> inFlight = new ConcurrentHashMap<>();

	/**
	 * Create a probe.
	 * @param clock the clock that stamps results
	 */
	public HttpHealthProbe(Clock clock) {
		this.clock = clock;
	}

	@Override
	public ProbeResult probe(Dependency dependency) {
		return probe(Objects.requireNonNull(dependency.healthUrl(), "health_url"), dependency.healthCheck().timeout());
	}

	/**
	 * Probe one health URL once, on the calling thread, as {@link #probe(Dependency)} probes a
	 * dependency's: for the instances of a service, each at its own address.
	 * @param url the absolute http(s) URL to GET
	 * @param timeout the most the probe may take, connection included
	 * @return the result
	 */
	public ProbeResult probe(URI url, Duration timeout) {
		long startNanos = System.nanoTime();
		int budgetMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
		String timedOut = "no answer within " + budgetMillis + " ms";
		HttpURLConnection connection = null;
		Probe probe = null;
		try {
			connection = (HttpURLConnection) url.toURL().openConnection();
			connection.setInstanceFollowRedirects(false);
			connection.setUseCaches(false);
			connection.setRequestProperty("Connection", "close");
			connection.setRequestProperty("User-Agent", "degradation-health-probe");
			connection.setConnectTimeout(budgetMillis);
			connection.setReadTimeout(budgetMillis);
			probe = new Probe(connection);
			this.inFlight.put(Thread.currentThread(), probe);
			// Only the status line counts; the body is never read, so a slow body cannot stretch
			// the probe, and disconnect() below closes the socket.
			int status = connection.getResponseCode();
			return result(status >= 200 && status < 300, ProbeResult.outcomeOf(status), "HTTP " + status,
					startNanos);
		}
		catch (SocketTimeoutException ex) {
			return result(false, ProbeResult.TIMEOUT, timedOut, startNanos);
		}
		catch (ConnectException ex) {
			return result(false, ProbeResult.REFUSED, String.valueOf(ex.getMessage()), startNanos);
		}
		catch (IOException | RuntimeException ex) {
			if (probe != null && probe.aborted) {
				return result(false, ProbeResult.TIMEOUT, timedOut, startNanos);
			}
			return result(false, ProbeResult.ERROR, ex.getClass().getSimpleName() + ": " + ex.getMessage(),
					startNanos);
		}
		finally {
			if (probe != null) {
				this.inFlight.remove(Thread.currentThread(), probe);
			}
			if (connection != null) {
				connection.disconnect();
			}
		}
	}

	@Override
	public void abort(Thread prober) {
		Probe probe = this.inFlight.get(prober);
		if (probe != null) {
			probe.abort();
		}
	}

	/**
	 * Abort every probe in flight, so that shutdown never waits for a dependency that does not
	 * answer.
	 */
	@Override
	public void abortAll() {
		this.inFlight.values().forEach(Probe::abort);
	}

	private ProbeResult result(boolean healthy, String outcome, String detail, long startNanos) {
		return new ProbeResult(healthy, outcome, detail, Instant.now(this.clock),
				Duration.ofNanos(System.nanoTime() - startNanos));
	}

	/**
	 * One probe in flight: aborting it marks this probe, not its thread, so that a late deadline
	 * can never be taken for the timeout of the thread's next probe.
	 */
	private static final class Probe {

		private final HttpURLConnection connection;

		private volatile boolean aborted;

		Probe(HttpURLConnection connection) {
			this.connection = connection;
		}

		void abort() {
			this.aborted = true;
			this.connection.disconnect();
		}

	}

}

package dev.degradation.monitor;

import java.io.IOException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.degradation.manifest.Dependency;

/**
 * Probes a dependency with an HTTP GET of its {@code health_url}: healthy on a 2xx answer within
 * {@code timeout_ms}, connection included.
 *
 * <p>Uses {@link HttpURLConnection} on the calling (probe) thread, with the connection closed
 * after every probe: no connection pool, no keep-alive thread, no selector thread that outlives
 * the application (the JDK 17 {@code HttpClient} keeps one until it is garbage collected). The
 * timeout is one budget shared by connecting and waiting for the status line. A probe in flight
 * can be aborted from another thread with {@link #abortAll()}, so that shutdown never waits for a
 * hanging dependency.
 */
public final class HttpHealthProbe implements HealthProbe {

	private final Clock clock;

	private final Map<Thread, HttpURLConnection> inFlight = new ConcurrentHashMap<>();

	private volatile boolean aborted;

	/**
	 * Create a probe.
	 * @param clock the clock that stamps results
	 */
	public HttpHealthProbe(Clock clock) {
		this.clock = clock;
	}

	@Override
	public ProbeResult probe(Dependency dependency) {
		long startNanos = System.nanoTime();
		long budgetMillis = dependency.healthCheck().timeout().toMillis();
		HttpURLConnection connection = null;
		try {
			connection = (HttpURLConnection) new URL(dependency.healthUrl().toString()).openConnection();
			connection.setInstanceFollowRedirects(false);
			connection.setUseCaches(false);
			connection.setRequestProperty("Connection", "close");
			connection.setRequestProperty("User-Agent", "degradation-health-probe");
			connection.setConnectTimeout((int) Math.max(1, budgetMillis));
			this.inFlight.put(Thread.currentThread(), connection);
			if (this.aborted) {
				return result(false, ProbeResult.ERROR, "probing stopped", startNanos);
			}
			connection.connect();
			long remaining = budgetMillis - elapsedMillis(startNanos);
			if (remaining <= 0) {
				return result(false, ProbeResult.TIMEOUT, "no answer within " + budgetMillis + " ms", startNanos);
			}
			connection.setReadTimeout((int) remaining);
			// Only the status line counts; the body is never read, so a slow body cannot stretch
			// the probe past its budget, and disconnect() below closes the socket.
			int status = connection.getResponseCode();
			return result(status >= 200 && status < 300, ProbeResult.outcomeOf(status), "HTTP " + status,
					startNanos);
		}
		catch (SocketTimeoutException ex) {
			return result(false, ProbeResult.TIMEOUT, "no answer within " + budgetMillis + " ms", startNanos);
		}
		catch (ConnectException ex) {
			return result(false, ProbeResult.REFUSED, String.valueOf(ex.getMessage()), startNanos);
		}
		catch (IOException | RuntimeException ex) {
			return result(false, ProbeResult.ERROR, ex.getClass().getSimpleName() + ": " + ex.getMessage(),
					startNanos);
		}
		finally {
			this.inFlight.remove(Thread.currentThread());
			if (connection != null) {
				connection.disconnect();
			}
		}
	}

	/**
	 * Abort every probe in flight and refuse new ones: their sockets are closed, so that a probe
	 * blocked on a dependency that never answers returns at once.
	 */
	public void abortAll() {
		this.aborted = true;
		this.inFlight.values().forEach(HttpURLConnection::disconnect);
	}

	private ProbeResult result(boolean healthy, String outcome, String detail, long startNanos) {
		return new ProbeResult(healthy, outcome, detail, Instant.now(this.clock),
				Duration.ofNanos(System.nanoTime() - startNanos));
	}

	private static long elapsedMillis(long startNanos) {
		return Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
	}

}

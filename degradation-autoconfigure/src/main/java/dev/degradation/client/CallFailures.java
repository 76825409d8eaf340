package dev.degradation.client;

import java.util.concurrent.TimeoutException;

/**
 * How a guarded call's failure is classified, the same for every client: a time-out, or a
 * connection error (the only failures without an answer that a retry may follow).
 */
final class CallFailures {

	private CallFailures() {
	}

	/**
	 * Return whether a failure, or one of its causes, is a time-out: the guard's or Reactor's
	 * {@code TimeoutException} (a {@link CallerDeadlineExceededException} too), the JDK client's
	 * {@code HttpTimeoutException}, or an interrupted I/O that no interrupt caused (Apache
	 * HttpClient's response, connect and connection-request time-outs).
	 */
	static boolean isTimeout(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof java.net.http.HttpTimeoutException || cause instanceof TimeoutException
					|| cause instanceof java.io.InterruptedIOException) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	/**
	 * Return whether a failure, or one of its causes, says the dependency could not be reached at
	 * all (refused, no route, unknown host): the only failure without an answer that a retry
	 * follows, since the request was never served.
	 */
	static boolean isConnectionError(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof java.net.ConnectException || cause instanceof java.net.NoRouteToHostException
					|| cause instanceof java.net.UnknownHostException) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

}

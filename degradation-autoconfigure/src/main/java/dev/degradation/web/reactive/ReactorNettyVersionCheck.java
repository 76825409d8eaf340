package dev.degradation.web.reactive;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Warns once at startup when a reactive application runs a Reactor Netty whose HTTP/1.1 server can
 * stop reading a keep-alive connection for good (before 1.3.8, reactor/reactor-netty#4361): a
 * request held back while the previous exchange on the connection ended, and answered at once,
 * leaves the connection unread, so the client's next request on it gets no answer. The starter
 * answers many requests at once (fallbacks, refusals), which makes it frequent; see
 * docs/overload.md, "A request without an answer on WebFlux".
 */
public final class ReactorNettyVersionCheck {

	private static final Log logger = LogFactory.getLog(ReactorNettyVersionCheck.class);

	static final String HTTP_SERVER_CLASS = "reactor.netty.http.server.HttpServer";

	/** The first Reactor Netty that keeps reading such a connection. */
	static final int[] FIXED_IN = { 1, 3, 8 };

	private ReactorNettyVersionCheck() {
	}

	/**
	 * Log the warning if the class loader's Reactor Netty needs it.
	 * @param classLoader the application's class loader
	 */
	public static void warnIfAffected(@Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(HTTP_SERVER_CLASS, classLoader)) {
			return;
		}
		String warning;
		try {
			Package server = ClassUtils.forName(HTTP_SERVER_CLASS, classLoader).getPackage();
			warning = warning((server != null) ? server.getImplementationVersion() : null);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return;
		}
		if (warning != null) {
			logger.warn(warning);
		}
	}

	/**
	 * Return the warning for a Reactor Netty version, or {@code null} when it needs none or is
	 * unknown.
	 * @param version Reactor Netty's version, as its jar names it
	 * @return the warning, or {@code null}
	 */
	static @Nullable String warning(@Nullable String version) {
		int[] parsed = parse(version);
		if (parsed == null || !before(parsed, FIXED_IN)) {
			return null;
		}
		return "Reactor Netty " + version + " can stop reading a keep-alive HTTP/1.1 connection after a request "
				+ "that is answered at once, as the degradation starter answers fallbacks and refusals; the next "
				+ "request on that connection then gets no answer (reactor/reactor-netty#4361). When Reactor Netty "
				+ "serves this application, use Reactor Netty 1.3.8 or later (Spring Boot 4.0.9 or later, or "
				+ "Reactor's BOM 2025.0.8 with Netty 4.2.18 or later).";
	}

	private static int @Nullable [] parse(@Nullable String version) {
		if (version == null) {
			return null;
		}
		String[] parts = version.split("[.-]", 4);
		if (parts.length < 3) {
			return null;
		}
		int[] parsed = new int[3];
		for (int i = 0; i < 3; i++) {
			if (parts[i].isEmpty() || parts[i].length() > 6 || !parts[i].chars().allMatch(Character::isDigit)) {
				return null;
			}
			parsed[i] = Integer.parseInt(parts[i]);
		}
		return parsed;
	}

	private static boolean before(int[] version, int[] other) {
		for (int i = 0; i < other.length; i++) {
			if (version[i] != other[i]) {
				return version[i] < other[i];
			}
		}
		return false;
	}

}

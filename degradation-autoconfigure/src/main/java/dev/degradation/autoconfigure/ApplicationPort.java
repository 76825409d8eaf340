package dev.degradation.autoconfigure;

import java.util.function.IntSupplier;

import org.springframework.core.env.Environment;

/**
 * The port of the application's own web server, once it has started, as Spring Boot publishes it
 * ({@code local.server.port}): with the Actuator on a port of its own, a request to the Actuator's
 * base path that arrived on this port is the application's like any other.
 */
final class ApplicationPort implements IntSupplier {

	private final Environment environment;

	/** The port once known; a started server's port does not change. */
	private volatile int port = -1;

	ApplicationPort(Environment environment) {
		this.environment = environment;
	}

	@Override
	public int getAsInt() {
		int port = this.port;
		if (port > 0) {
			return port;
		}
		port = this.environment.getProperty("local.server.port", Integer.class, -1);
		if (port > 0) {
			this.port = port;
		}
		return port;
	}

}

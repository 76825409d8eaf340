package dev.degradation.autoconfigure;

import java.util.Collection;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The Actuator's base path, where no route may be and which no request decision sheds or refuses,
 * as Boot's {@code WebEndpointProperties} binds {@code management.endpoints.web.base-path}, and
 * the Actuator's paths on the application's port outside it (every endpoint's when the base path
 * is the root, the health groups' additional paths), which no decision sheds or refuses either;
 * with the Actuator on a port of its own, the base path on the application's port is the
 * application's like any other path. A
 * type of its own so that the core auto-configuration takes it without naming the Actuator's
 * classes, which an application without the Actuator does not have; read at each use, as a
 * configuration refresh may rebind it.
 */
final class ActuatorBasePath {

	private final Supplier<String> basePath;

	private final Supplier<Collection<String>> elsewhere;

	private final IntSupplier applicationPort;

	ActuatorBasePath(Supplier<String> basePath) {
		this(basePath, List::of, () -> -1);
	}

	ActuatorBasePath(Supplier<String> basePath, Supplier<Collection<String>> elsewhere, IntSupplier applicationPort) {
		this.basePath = basePath;
		this.elsewhere = elsewhere;
		this.applicationPort = applicationPort;
	}

	String get() {
		return this.basePath.get();
	}

	/**
	 * Return the Actuator's paths on the application's port outside its base path, once the
	 * endpoints are known.
	 * @return the paths
	 */
	Collection<String> elsewhere() {
		return this.elsewhere.get();
	}

	/**
	 * Return the application's own port when the Actuator is served on a port of its own, where
	 * the base path is the application's like any other path.
	 * @return the port, or {@code -1} while it is not known or when the Actuator shares it
	 */
	int applicationPort() {
		return this.applicationPort.getAsInt();
	}

	/**
	 * Return the base path, or {@code null} without the Actuator's web endpoints on the class path.
	 * @param basePath the bean, when there is one
	 * @return the base path, or {@code null}
	 */
	static @Nullable String of(ObjectProvider<ActuatorBasePath> basePath) {
		ActuatorBasePath available = basePath.getIfAvailable();
		return (available != null) ? available.get() : null;
	}

}

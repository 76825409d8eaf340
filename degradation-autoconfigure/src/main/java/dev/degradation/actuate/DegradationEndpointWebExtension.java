package dev.degradation.actuate;

import java.util.Map;
import java.util.NoSuchElementException;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The web face of the {@link DegradationEndpoint}: a rejected write answers {@code 400} with the
 * reason in the body, whatever the application's error settings, because the caller is usually a
 * CI script that needs to know what it got wrong.
 */
@EndpointWebExtension(endpoint = DegradationEndpoint.class)
public class DegradationEndpointWebExtension {

	private final DegradationEndpoint endpoint;

	/**
	 * Create an extension.
	 * @param endpoint the endpoint it extends
	 */
	public DegradationEndpointWebExtension(DegradationEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	/**
	 * Switch simulation on at a level, or off.
	 * @param enabled whether simulation is on
	 * @param level the level to simulate; required when {@code enabled} is true
	 * @return the description after the change, or {@code 400} with the reason
	 */
	@WriteOperation
	public WebEndpointResponse<Object> simulate(boolean enabled, @Nullable Integer level) {
		try {
			return new WebEndpointResponse<>(this.endpoint.simulate(enabled, level));
		}
		catch (InvalidEndpointRequestException ex) {
			return badRequest(ex.getMessage());
		}
	}

	/**
	 * Force a dependency down or up.
	 * @param section must be {@code dependencies}
	 * @param name the dependency name
	 * @param state {@code down} or {@code up}
	 * @return the description after the change, {@code 404} for an unknown name, or {@code 400}
	 * for a bad state
	 */
	@WriteOperation
	public WebEndpointResponse<Object> forceDependency(@Selector String section, @Selector String name,
			@Nullable String state) {
		try {
			return new WebEndpointResponse<>(this.endpoint.forceDependency(section, name, state));
		}
		catch (NoSuchElementException ex) {
			return notFound(ex.getMessage());
		}
		catch (InvalidEndpointRequestException ex) {
			return badRequest(ex.getMessage());
		}
	}

	/**
	 * Stop forcing a dependency.
	 * @param section must be {@code dependencies}
	 * @param name the dependency name
	 * @return the description after the change, or {@code 404} for an unknown name
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> releaseDependency(@Selector String section, @Selector String name) {
		try {
			return new WebEndpointResponse<>(this.endpoint.releaseDependency(section, name));
		}
		catch (NoSuchElementException ex) {
			return notFound(ex.getMessage());
		}
	}

	private static WebEndpointResponse<Object> notFound(String reason) {
		return new WebEndpointResponse<>(Map.of("status", WebEndpointResponse.STATUS_NOT_FOUND, "error", "Not Found",
				"message", reason), WebEndpointResponse.STATUS_NOT_FOUND);
	}

	static WebEndpointResponse<Object> badRequest(String reason) {
		return new WebEndpointResponse<>(Map.of("status", WebEndpointResponse.STATUS_BAD_REQUEST, "error",
				"Bad Request", "message", reason), WebEndpointResponse.STATUS_BAD_REQUEST);
	}

}

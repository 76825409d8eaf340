package dev.degradation.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.core.io.Resource;

/**
 * The web face of the {@link DegradationEndpoint}: a rejected write answers {@code 400} with the
 * reason in the body, whatever the application's error settings, because the caller is usually a
 * CI script that needs to know what it got wrong. It also serves the live
 * {@link DegradationStatusPage status page} at {@code ui}, so that the page has the endpoint's
 * port, base path, exposure and security.
 */
@EndpointWebExtension(endpoint = DegradationEndpoint.class)
public class DegradationEndpointWebExtension {

	private final DegradationEndpoint endpoint;

	private final @Nullable DegradationStatusPage statusPage;

	/**
	 * Create an extension without the status page.
	 * @param endpoint the endpoint it extends
	 */
	public DegradationEndpointWebExtension(DegradationEndpoint endpoint) {
		this(endpoint, null);
	}

	/**
	 * Create an extension.
	 * @param endpoint the endpoint it extends
	 * @param statusPage the live status page it serves at {@code ui}, or {@code null} for none
	 */
	public DegradationEndpointWebExtension(DegradationEndpoint endpoint, @Nullable DegradationStatusPage statusPage) {
		this.endpoint = endpoint;
		this.statusPage = statusPage;
	}

	/**
	 * The live status page ({@code GET ui}), when it is on.
	 * @param page the path segment, {@value DegradationStatusPage#PAGE}
	 * @return the page, or {@code 404} when it is off or for any other segment
	 */
	@ReadOperation(produces = { "text/html", "text/css", "text/javascript" })
	public @Nullable WebEndpointResponse<Resource> statusPage(@Selector String page) {
		return (this.statusPage != null) ? this.statusPage.page(page) : null;
	}

	/**
	 * The status page's style sheet and script ({@code GET ui/status.css}, {@code ui/status.js}).
	 * @param page the path segment, {@value DegradationStatusPage#PAGE}
	 * @param asset the file name
	 * @return the file, or {@code 404}
	 */
	@ReadOperation(produces = { "text/css", "text/javascript", "text/html" })
	public @Nullable WebEndpointResponse<Resource> statusPageAsset(@Selector String page, @Selector String asset) {
		return (this.statusPage != null) ? this.statusPage.asset(page, asset) : null;
	}

	/**
	 * Switch simulation on at a level, or off.
	 * @param enabled whether simulation is on
	 * @param level the level to simulate; required when {@code enabled} is true
	 * @param ttl how long simulation holds; without it, until turned off
	 * @param security who asks, for the audit line
	 * @return the description after the change, or {@code 400} with the reason
	 */
	@WriteOperation
	public WebEndpointResponse<Object> simulate(boolean enabled, @Nullable Integer level, @Nullable String ttl,
			SecurityContext security) {
		return answer(() -> this.endpoint.simulate(enabled, level, ttl, security));
	}

	/**
	 * Force a dependency down or up, or switch a tier or named route off or on.
	 * @param section {@code dependencies} or {@code switches}
	 * @param name the dependency, or the tier or route name
	 * @param state the state to set
	 * @param ttl for a switch, how long it holds
	 * @param security who asks, for the audit line
	 * @return the description after the change, {@code 404} for an unknown name (with the known
	 * ones), or {@code 400} for a bad state or time to live
	 */
	@WriteOperation
	public WebEndpointResponse<Object> write(@Selector String section, @Selector String name, @Nullable String state,
			@Nullable String ttl, SecurityContext security) {
		return answer(() -> this.endpoint.write(section, name, state, ttl, security));
	}

	/**
	 * Reload the manifest from its configured location.
	 * @param section must be {@code manifest}
	 * @param security who asks, for the audit line
	 * @return the description after the reload, or {@code 400} with every positioned problem of a
	 * refused manifest (the active one stays)
	 */
	@WriteOperation
	public WebEndpointResponse<Object> reload(@Selector String section, SecurityContext security) {
		try {
			return answer(() -> this.endpoint.reload(section, security));
		}
		catch (ManifestRefusedException ex) {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("status", WebEndpointResponse.STATUS_BAD_REQUEST);
			body.put("error", "Bad Request");
			body.put("message", ex.getMessage());
			body.put("problems", ex.problems());
			return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_BAD_REQUEST);
		}
	}

	/**
	 * Release a forced dependency, or remove a switch's override.
	 * @param section {@code dependencies} or {@code switches}
	 * @param name the dependency, or the tier or route name
	 * @param security who asks, for the audit line
	 * @return the description after the change, or {@code 404} for an unknown name
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> remove(@Selector String section, @Selector String name,
			SecurityContext security) {
		return answer(() -> this.endpoint.remove(section, name, security));
	}

	private static WebEndpointResponse<Object> answer(Supplier<Object> operation) {
		try {
			return new WebEndpointResponse<>(operation.get());
		}
		catch (NoSuchElementException ex) {
			return notFound(ex.getMessage());
		}
		catch (ManifestRefusedException ex) {
			throw ex;
		}
		catch (InvalidEndpointRequestException ex) {
			return badRequest(ex.getMessage());
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

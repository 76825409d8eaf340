package dev.degradation.actuate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.util.MimeType;
import org.springframework.util.function.SingletonSupplier;

/**
 * The live status page of the {@code degradation} endpoint, for an operator who would rather look
 * than read JSON: {@code GET <actuator base path>/degradation/ui}. Three plain files shipped in
 * the jar (HTML, CSS and JavaScript, nothing fetched from elsewhere, no build step) that poll the
 * endpoint's own read operation ({@code GET <actuator base path>/degradation}) every
 * {@code refreshInterval}. Served by the endpoint itself, so it has the endpoint's port, base
 * path, exposure and security, and it only reads: operator writes stay in the JSON API. The files
 * are read from the jar when the page is first asked for, not while the application starts.
 */
public final class DegradationStatusPage {

	/** The path segment of the page under the endpoint. */
	public static final String PAGE = "ui";

	/**
	 * Where the page is from its address with a trailing slash ({@code .../degradation/ui/}):
	 * relative, so that it holds behind a proxy prefix.
	 */
	static final String FROM_SLASH = "../" + PAGE;

	private static final String LOCATION = "META-INF/degradation/ui/";

	private static final MimeType HTML = MimeType.valueOf("text/html;charset=UTF-8");

	private static final Map<String, MimeType> ASSETS = Map.of("status.css", MimeType.valueOf("text/css;charset=UTF-8"),
			"status.js", MimeType.valueOf("text/javascript;charset=UTF-8"));

	private final SingletonSupplier<byte[]> page;

	private final SingletonSupplier<Map<String, byte[]>> assets;

	/**
	 * Create the page.
	 * @param refreshInterval how often the page reads the endpoint again
	 */
	public DegradationStatusPage(Duration refreshInterval) {
		if (refreshInterval.toMillis() < 1) {
			throw new IllegalArgumentException("'refreshInterval' must be at least 1 ms, but was " + refreshInterval);
		}
		String refreshMs = Long.toString(refreshInterval.toMillis());
		this.page = SingletonSupplier
			.of(() -> read("index.html").replace("{{refreshMs}}", refreshMs).getBytes(StandardCharsets.UTF_8));
		this.assets = SingletonSupplier.of(() -> Map.of("status.css",
				read("status.css").getBytes(StandardCharsets.UTF_8), "status.js",
				read("status.js").getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * The page itself.
	 * @param page the path segment asked for; only {@value #PAGE} is a page
	 * @return the page, or {@code null} (404) for any other segment
	 */
	@Nullable WebEndpointResponse<Resource> page(String page) {
		return PAGE.equals(page) ? new WebEndpointResponse<>(new ByteArrayResource(this.page.obtain()), 200, HTML) : null;
	}

	/**
	 * One of the page's style sheet and script.
	 * @param page the page's path segment, {@value #PAGE}
	 * @param asset the file name
	 * @return the file, or {@code null} (404) for any other name
	 */
	@Nullable WebEndpointResponse<Resource> asset(String page, String asset) {
		byte[] content = PAGE.equals(page) ? this.assets.obtain().get(asset) : null;
		return (content != null) ? new WebEndpointResponse<>(new ByteArrayResource(content), 200, ASSETS.get(asset))
				: null;
	}

	/**
	 * Return the page's address with a trailing slash, which the Actuator matches no operation
	 * for and the page's relative links do not resolve from: a filter sends it to the page.
	 * @param endpointPath the endpoint's path within the application, such as
	 * {@code /actuator/degradation}
	 * @return the path, such as {@code /actuator/degradation/ui/}
	 */
	static String slashPath(String endpointPath) {
		return (endpointPath.endsWith("/") ? endpointPath : endpointPath + "/") + PAGE + "/";
	}

	private static String read(String name) {
		try (InputStream in = new ClassPathResource(LOCATION + name, DegradationStatusPage.class.getClassLoader())
			.getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The status page's " + name + " is missing from the jar", ex);
		}
	}

}

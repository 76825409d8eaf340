package dev.degradation.samplereactive.embedded;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The catalog's two dependencies, started together: {@code reviews-api} (the reviews of a
 * product) and {@code recommendations-api} (products recommended to everyone).
 */
public final class EmbeddedDependencies implements AutoCloseable {

	/** Name of the dependency that holds the reviews. */
	public static final String REVIEWS_API = "reviews-api";

	/** Name of the dependency that recommends products. */
	public static final String RECOMMENDATIONS_API = "recommendations-api";

	/** The names of the dependencies, in the manifest's order. */
	public static final List<String> NAMES = List.of(REVIEWS_API, RECOMMENDATIONS_API);

	private static final Pattern REVIEWS_PATH = Pattern.compile("/reviews/([0-9]+)");

	private final Map<String, EmbeddedDependency> byName = new LinkedHashMap<>();

	private EmbeddedDependencies() {
		this.byName.put(REVIEWS_API, new EmbeddedDependency(REVIEWS_API, EmbeddedDependencies::reviews));
		this.byName.put(RECOMMENDATIONS_API,
				new EmbeddedDependency(RECOMMENDATIONS_API, (path) -> "{\"items\":[{\"id\":2,\"name\":\"Kettle\"},"
						+ "{\"id\":3,\"name\":\"Teapot\"}],\"source\":\"live\"}"));
	}

	/**
	 * Start every dependency on a free loopback port.
	 * @return the started dependencies
	 */
	public static EmbeddedDependencies start() {
		return new EmbeddedDependencies();
	}

	/**
	 * Return a dependency by name.
	 * @param name its name
	 * @return the dependency
	 * @throws NoSuchElementException if there is none of that name
	 */
	public EmbeddedDependency get(String name) {
		EmbeddedDependency dependency = this.byName.get(name);
		if (dependency == null) {
			throw new NoSuchElementException("No embedded dependency '" + name + "'; there are " + NAMES);
		}
		return dependency;
	}

	/**
	 * Return every dependency, in the manifest's order.
	 * @return the dependencies
	 */
	public List<EmbeddedDependency> all() {
		return List.copyOf(this.byName.values());
	}

	/**
	 * Stop every dependency.
	 */
	@Override
	public void close() {
		this.byName.values().forEach(EmbeddedDependency::stop);
	}

	private static String reviews(String path) {
		Matcher matcher = REVIEWS_PATH.matcher(path);
		String product = matcher.matches() ? matcher.group(1) : "0";
		return "{\"product\":" + product + ",\"reviews\":[{\"stars\":5,\"text\":\"Does what it says\"}],"
				+ "\"source\":\"live\"}";
	}

	@Override
	public String toString() {
		return this.byName.values().toString();
	}

}

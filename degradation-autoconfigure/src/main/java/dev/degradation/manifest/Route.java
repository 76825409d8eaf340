package dev.degradation.manifest;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A degradable route: which requests it covers, what it answers when its tier is shed, and the
 * dependencies it cannot work without.
 *
 * @param tier the name of the tier the route belongs to
 * @param method the HTTP method, upper case ({@code HEAD} requests also match {@code GET} routes)
 * @param path the Spring {@code PathPattern} of the route, such as {@code /api/products/{id}}
 * @param fallback what the route answers while its tier is shed
 * @param requires the names of the dependencies the route needs
 * @param position where the route is declared
 * @param name the route's name ({@code name}), by which an operator switches it alone, or
 * {@code null}
 */
public record Route(String tier, String method, String path, Fallback fallback, List<String> requires,
		Position position, @Nullable String name) {

	public Route {
		requires = List.copyOf(requires);
	}

	/**
	 * Create a route without a name.
	 * @param tier the name of the tier the route belongs to
	 * @param method the HTTP method, upper case
	 * @param path the Spring {@code PathPattern} of the route
	 * @param fallback what the route answers while it is shed
	 * @param requires the names of the dependencies the route needs
	 * @param position where the route is declared
	 */
	public Route(String tier, String method, String path, Fallback fallback, List<String> requires,
			Position position) {
		this(tier, method, path, fallback, requires, position, null);
	}

	@Override
	public String toString() {
		return this.method + " " + this.path;
	}

}

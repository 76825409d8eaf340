package dev.degradation.manifest;

import java.util.List;

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
 */
public record Route(String tier, String method, String path, Fallback fallback, List<String> requires,
		Position position) {

	public Route {
		requires = List.copyOf(requires);
	}

	@Override
	public String toString() {
		return this.method + " " + this.path;
	}

}

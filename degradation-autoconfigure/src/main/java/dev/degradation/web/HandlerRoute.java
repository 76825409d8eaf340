package dev.degradation.web;

import java.util.Set;

/**
 * A request mapping of the application, as far as the manifest check needs it.
 *
 * @param methods the HTTP methods it accepts, upper case; empty for every method
 * @param pattern its path pattern
 * @param handler a description of the handler, such as {@code ShopController#products()}
 */
public record HandlerRoute(Set<String> methods, String pattern, String handler) {

	public HandlerRoute {
		methods = Set.copyOf(methods);
	}

	@Override
	public String toString() {
		return (this.methods.isEmpty() ? "*" : String.join("|", this.methods.stream().sorted().toList())) + " "
				+ this.pattern;
	}

}

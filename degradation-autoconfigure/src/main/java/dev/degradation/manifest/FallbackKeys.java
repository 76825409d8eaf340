package dev.degradation.manifest;

import org.jspecify.annotations.Nullable;

/**
 * The keys of one route that its fallback kind reads, each present as the kind declared it
 * ({@link FallbackKey}): what a {@link FallbackKind} builds its fallback from. Values are read
 * with the manifest's own rules (placeholders resolved, types checked), and every problem is
 * recorded where its key is written, with the others of the manifest, so that a kind of the
 * application reports as the built-in ones do.
 */
public final class FallbackKeys {

	private final YamlNode.Mapping route;

	private final String path;

	private final ValueReader values;

	FallbackKeys(YamlNode.Mapping route, String path, ValueReader values) {
		this.route = route;
		this.path = path;
		this.values = values;
	}

	/**
	 * Return the YAML path of the route, such as {@code tiers.enhanced.routes[0]}.
	 * @return the path
	 */
	public String path() {
		return this.path;
	}

	/**
	 * Return whether the route writes a key.
	 * @param key the key
	 * @return whether it is written
	 */
	public boolean has(String key) {
		return this.route.entries().containsKey(key);
	}

	/**
	 * Read a text value, not blank, with its placeholders resolved.
	 * @param key the key
	 * @return the text, or {@code null} when the key is left out or its value is not usable
	 * (reported)
	 */
	public @Nullable String text(String key) {
		return this.values.text(this.route, this.path, key).value();
	}

	/**
	 * Read a whole number from {@code min} to {@code max}.
	 * @param key the key
	 * @param min the smallest value allowed
	 * @param max the largest value allowed
	 * @return the number, or {@code null} when the key is left out or its value is not usable
	 * (reported)
	 */
	public @Nullable Long wholeNumber(String key, long min, long max) {
		return this.values.wholeNumber(this.route, this.path, key, min, max).value();
	}

	/**
	 * Report a problem of a key's value, where the value is written (or at the route when the key
	 * is left out); the route then has no fallback, and the manifest fails to load.
	 * @param key the key
	 * @param message what is wrong and what to write instead
	 */
	public void problem(String key, String message) {
		YamlNode.Entry entry = this.route.entries().get(key);
		Position position = (entry != null) ? entry.value().position() : this.route.position();
		this.values.problems().add(position, this.path + "." + key, message);
	}

	YamlNode.Mapping route() {
		return this.route;
	}

	ValueReader values() {
		return this.values;
	}

	YamlNode node(FallbackKey key) {
		YamlNode.Entry entry = this.route.entries().get(key.name());
		if (entry == null) {
			throw new IllegalStateException("No '" + key.name() + "' in " + this.path);
		}
		return entry.value();
	}

	YamlNode.@Nullable Entry entry(FallbackKey key) {
		return this.route.entries().get(key.name());
	}

}

package dev.degradation.manifest;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * A value that a mapping of the manifest may set, as read: left out, written with a usable value,
 * or written with a value that is not usable (reported) or not known yet (an unresolved
 * placeholder). Rules that relate several values need to tell these apart, and to know where a
 * value was written so that they can point at it.
 *
 * @param <T> the type of the value
 * @param path the YAML path of the key, such as {@code dependencies.catalog.timeout_ms}
 * @param entry the key and its value as written, or {@code null} when the key is left out
 * @param value the value, or {@code null} when the key is left out or its value is not usable
 */
record Setting<T>(String path, YamlNode.@Nullable Entry entry, @Nullable T value) {

	/**
	 * Return a setting that is not written anywhere and holds a value that applies regardless, such
	 * as a standard value.
	 */
	static <T> Setting<T> unwritten(T value) {
		return new Setting<>("", null, value);
	}

	boolean written() {
		return this.entry != null;
	}

	/**
	 * Return this setting if it is written, else the one it inherits: the setting in effect.
	 */
	Setting<T> or(Setting<T> inherited) {
		return written() ? this : inherited;
	}

	/**
	 * Return the value, or {@code fallback} when there is none to use.
	 */
	T valueOr(T fallback) {
		return (this.value != null) ? this.value : fallback;
	}

	<R> Setting<R> map(Function<T, R> function) {
		return new Setting<>(this.path, this.entry, (this.value != null) ? function.apply(this.value) : null);
	}

}

package dev.degradation.manifest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * Loads a degradation manifest from YAML and validates it completely. Every problem is collected
 * with its line, column and YAML path and reported together in one
 * {@link InvalidManifestException}; nothing is half-loaded.
 *
 * <p>Instances are immutable and thread-safe; the {@code with...} methods return a copy.
 */
public final class ManifestLoader {

	private final ManifestLimits limits;

	private final UnaryOperator<String> placeholders;

	private final @Nullable String reservedBasePath;

	private final boolean placeholdersRequired;

	private final FallbackKindTable kinds;

	private final List<HealthSourceKey> sourceKeys;

	private ManifestLoader(ManifestLimits limits, UnaryOperator<String> placeholders,
			@Nullable String reservedBasePath, boolean placeholdersRequired, FallbackKindTable kinds,
			List<HealthSourceKey> sourceKeys) {
		this.limits = limits;
		this.placeholders = placeholders;
		this.reservedBasePath = reservedBasePath;
		this.placeholdersRequired = placeholdersRequired;
		this.kinds = kinds;
		this.sourceKeys = List.copyOf(sourceKeys);
	}

	/**
	 * Return a loader with the default limits, no placeholder resolution, no reserved path, and
	 * the built-in fallback kinds alone.
	 * @return a new loader
	 */
	public static ManifestLoader standard() {
		return new ManifestLoader(ManifestLimits.DEFAULT, UnaryOperator.identity(), null, true,
				FallbackKindTable.BUILT_IN, List.of());
	}

	/**
	 * Return a copy that also knows the given fallback kinds, after those it knows: a route may
	 * name them in {@code fallback} and write their keys.
	 * @param kinds the kinds, such as an application's
	 * @return a new loader
	 * @throws IllegalArgumentException if a kind's name is already a kind's
	 */
	public ManifestLoader withFallbackKinds(List<? extends FallbackKind<?>> kinds) {
		return new ManifestLoader(this.limits, this.placeholders, this.reservedBasePath, this.placeholdersRequired,
				this.kinds.with(kinds), this.sourceKeys);
	}

	/**
	 * Return a copy that also knows the given keys of health sources: a dependency may write one
	 * of them instead of {@code health_url} or {@code health_indicator}, to be judged by its
	 * source.
	 * @param keys the keys
	 * @return a new loader
	 */
	public ManifestLoader withHealthSourceKeys(List<HealthSourceKey> keys) {
		List<HealthSourceKey> all = new ArrayList<>(this.sourceKeys);
		for (HealthSourceKey key : keys) {
			if (all.stream().noneMatch((known) -> known.name().equals(key.name()))) {
				all.add(key);
			}
		}
		return new ManifestLoader(this.limits, this.placeholders, this.reservedBasePath, this.placeholdersRequired,
				this.kinds, all);
	}

	/**
	 * Return a copy that resolves {@code ${...}} placeholders in text values (outside
	 * {@code static_response}, which is sent as written) with the given function. The function
	 * throws {@link IllegalArgumentException} for a placeholder it cannot resolve, which becomes a
	 * positioned problem.
	 * @param placeholders the resolver, such as
	 * {@code Environment::resolveRequiredPlaceholders}
	 * @return a new loader
	 */
	public ManifestLoader withPlaceholderResolver(UnaryOperator<String> placeholders) {
		return new ManifestLoader(this.limits, placeholders, this.reservedBasePath, this.placeholdersRequired,
				this.kinds, this.sourceKeys);
	}

	/**
	 * Return a copy that rejects routes at or under the given path, so that the degradation
	 * controls (the Actuator) can never be shed.
	 * @param basePath the reserved base path, such as {@code /actuator}, or {@code null}
	 * @return a new loader
	 */
	public ManifestLoader withReservedBasePath(@Nullable String basePath) {
		return new ManifestLoader(this.limits, this.placeholders, basePath, this.placeholdersRequired, this.kinds,
				this.sourceKeys);
	}

	/**
	 * Return a copy with other parsing limits.
	 * @param limits the limits
	 * @return a new loader
	 */
	public ManifestLoader withLimits(ManifestLimits limits) {
		return new ManifestLoader(limits, this.placeholders, this.reservedBasePath, this.placeholdersRequired,
				this.kinds, this.sourceKeys);
	}

	/**
	 * Return a copy that leaves a value unchecked when the resolver cannot resolve a placeholder in
	 * it, instead of reporting it. Only for validation away from the environment that will resolve
	 * the placeholders: the manifest it reads lacks what such values would have given.
	 * @return a new loader
	 */
	ManifestLoader withUnresolvedPlaceholdersUnchecked() {
		return new ManifestLoader(this.limits, this.placeholders, this.reservedBasePath, false, this.kinds,
				this.sourceKeys);
	}

	/**
	 * Load a manifest from a stream, reading at most the size limit.
	 * @param source a description of the file for error messages
	 * @param input the content; not closed by this method
	 * @return the validated manifest
	 * @throws InvalidManifestException if the manifest has any problem
	 */
	public DegradationManifest load(String source, InputStream input) {
		try {
			byte[] content = input.readNBytes(this.limits.maxBytes() + 1);
			return load(source, content);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read degradation manifest " + source, ex);
		}
	}

	/**
	 * Load a manifest from its bytes.
	 * @param source a description of the file for error messages
	 * @param content the content, UTF-8
	 * @return the validated manifest
	 * @throws InvalidManifestException if the manifest has any problem
	 */
	public DegradationManifest load(String source, byte[] content) {
		Problems problems = new Problems(source);
		DegradationManifest manifest = read(source, content, problems).manifest();
		problems.throwIfAny();
		if (manifest == null) {
			throw new IllegalStateException("No manifest and no problem for " + source);
		}
		return manifest;
	}

	/**
	 * Read and validate a manifest, recording its problems instead of throwing them.
	 * @param source a description of the file for error messages
	 * @param content the content, UTF-8
	 * @param problems where problems are added
	 * @return what was read
	 */
	Reading read(String source, byte[] content, Problems problems) {
		YamlNode root = new YamlTreeReader(this.limits).read(content, problems);
		if (root == null) {
			return new Reading(null, null);
		}
		DegradationManifest manifest = new ManifestReader(source, problems, this.placeholders,
				this.reservedBasePath, this.placeholdersRequired, this.kinds, this.sourceKeys)
			.read(root);
		return new Reading(root, manifest);
	}

	/**
	 * What reading a manifest gave, problems aside.
	 *
	 * @param root the YAML tree, or {@code null} when the document could not be read into one
	 * @param manifest the manifest, or {@code null} when the tree is not one; it is complete only
	 * when no problem was recorded and every placeholder was resolved
	 */
	record Reading(@Nullable YamlNode root, @Nullable DegradationManifest manifest) {

	}

}

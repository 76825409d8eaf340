package dev.degradation.manifest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;


/**
 * Validates manifest files without starting an application, with the rules the starter applies
 * at startup. Behind {@code java -jar degradation-manifest-cli.jar}, and usable from a build's own
 * tests:
 *
 * <pre class="code">
 * assertThat(ManifestValidator.standard().validate(Path.of("src/main/resources/degradation-manifest.yaml")))
 *     .isEmpty();
 * </pre>
 *
 * <p>Placeholders ({@code ${name}}, {@code ${name:default}}) are resolved as Spring resolves them,
 * from the given properties only: the environment the application will run in is not here. A
 * placeholder without a value is a problem, unless placeholders are lenient, in which case only
 * their syntax is checked and the values that hold them are left unchecked.
 *
 * <p>Instances are immutable and thread-safe; the {@code with...} methods return a copy.
 */
public final class ManifestValidator {

	/** Where the JSON Schema of the manifest is on the class path. */
	public static final String SCHEMA_LOCATION = "META-INF/degradation/degradation-manifest.schema.json";

	private static final String DEFAULT_RESERVED_BASE_PATH = "/actuator";

	private final @Nullable String reservedBasePath;

	private final Map<String, String> properties;

	private final boolean lenientPlaceholders;

	private final List<FallbackKind<?>> kinds;

	private final List<HealthSourceKey> sourceKeys;

	private ManifestValidator(@Nullable String reservedBasePath, Map<String, String> properties,
			boolean lenientPlaceholders) {
		this(reservedBasePath, properties, lenientPlaceholders, List.of(), List.of());
	}

	private ManifestValidator(@Nullable String reservedBasePath, Map<String, String> properties,
			boolean lenientPlaceholders, List<FallbackKind<?>> kinds, List<HealthSourceKey> sourceKeys) {
		this.reservedBasePath = reservedBasePath;
		this.properties = Map.copyOf(properties);
		this.lenientPlaceholders = lenientPlaceholders;
		this.kinds = List.copyOf(kinds);
		this.sourceKeys = List.copyOf(sourceKeys);
	}

	/**
	 * Return a copy that also knows an application's fallback kinds and the keys of its health
	 * sources, for a build's own test of its manifest; without them, a route of another kind is
	 * reported as at startup without the kind.
	 * @param kinds the application's fallback kinds
	 * @param sourceKeys the keys of its health sources
	 * @return a new validator
	 */
	public ManifestValidator withPlugins(List<? extends FallbackKind<?>> kinds, List<HealthSourceKey> sourceKeys) {
		return new ManifestValidator(this.reservedBasePath, this.properties, this.lenientPlaceholders,
				new ArrayList<>(kinds), sourceKeys);
	}

	private ManifestLoader loader() {
		return ManifestLoader.standard().withFallbackKinds(this.kinds).withHealthSourceKeys(this.sourceKeys);
	}

	/**
	 * Return a validator as the starter loads manifests in an application with the Actuator at
	 * {@code /actuator}, with no placeholder values.
	 * @return a new validator
	 */
	public static ManifestValidator standard() {
		return new ManifestValidator(DEFAULT_RESERVED_BASE_PATH, Map.of(), false);
	}

	/**
	 * Return a copy that rejects routes at or under the given path instead of {@code /actuator}.
	 * @param basePath the Actuator base path of the application, or {@code null} for none
	 * @return a new validator
	 */
	public ManifestValidator withReservedBasePath(@Nullable String basePath) {
		return new ManifestValidator(basePath, this.properties, this.lenientPlaceholders, this.kinds,
				this.sourceKeys);
	}

	/**
	 * Return a copy that resolves {@code ${name}} to the given value.
	 * @param name the property name
	 * @param value its value
	 * @return a new validator
	 */
	public ManifestValidator withProperty(String name, String value) {
		Map<String, String> properties = new LinkedHashMap<>(this.properties);
		properties.put(name, value);
		return new ManifestValidator(this.reservedBasePath, properties, this.lenientPlaceholders, this.kinds,
				this.sourceKeys);
	}

	/**
	 * Return a copy that checks only the syntax of a placeholder it has no value for, and leaves
	 * the value that holds it unchecked, instead of reporting it.
	 * @return a new validator
	 */
	public ManifestValidator withLenientPlaceholders() {
		return new ManifestValidator(this.reservedBasePath, this.properties, true, this.kinds, this.sourceKeys);
	}

	/**
	 * Validate a manifest file.
	 * @param file the manifest
	 * @return every problem, in the order they appear in the file; empty when the manifest is valid
	 * @throws UncheckedIOException if the file cannot be read
	 */
	public List<ManifestProblem> validate(Path file) {
		return check(file).problems();
	}

	/**
	 * Validate a manifest.
	 * @param source a description of the file for the problems
	 * @param content the content, UTF-8
	 * @return every problem, in the order they appear in the file; empty when the manifest is valid
	 */
	public List<ManifestProblem> validate(String source, byte[] content) {
		return check(source, content).problems();
	}

	/**
	 * Validate a manifest file and count what it declares.
	 * @param file the manifest
	 * @return what was found
	 * @throws UncheckedIOException if the file cannot be read
	 */
	public ManifestCheck check(Path file) {
		try (InputStream input = Files.newInputStream(file)) {
			// One byte past the limit is enough for the loader to report the file as too large.
			return check(file.toString(), input.readNBytes(ManifestLimits.DEFAULT.maxBytes() + 1));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(file + ": cannot read the file: " + describe(ex), ex);
		}
	}

	/**
	 * Validate a manifest and count what it declares.
	 * @param source a description of the file for the problems
	 * @param content the content, UTF-8
	 * @return what was found
	 */
	public ManifestCheck check(String source, byte[] content) {
		AtomicInteger unresolved = new AtomicInteger();
		ManifestLoader loader = loader().withReservedBasePath(this.reservedBasePath)
			.withPlaceholderResolver(resolver(unresolved));
		if (this.lenientPlaceholders) {
			loader = loader.withUnresolvedPlaceholdersUnchecked();
		}
		Problems problems = new Problems(source);
		YamlNode root = loader.read(source, content, problems).root();
		YamlNode.Mapping tiers = child(root, ManifestKeys.TIERS);
		int routes = 0;
		if (tiers != null) {
			for (YamlNode.Entry tier : tiers.entries().values()) {
				if (value(tier.value(), ManifestKeys.ROUTES) instanceof YamlNode.Sequence sequence) {
					routes += sequence.items().size();
				}
			}
		}
		YamlNode.Mapping dependencies = child(root, ManifestKeys.DEPENDENCIES);
		return new ManifestCheck(source, problems.listed(),
				(dependencies != null) ? dependencies.entries().size() : 0,
				(tiers != null) ? tiers.entries().size() : 0, routes, unresolved.get());
	}

	/**
	 * Load a manifest with this validator's properties and reserved base path, for tools that
	 * need its routes (the CLI's {@code walk}); a placeholder without a value is a problem here,
	 * whatever the leniency.
	 * @param file the manifest
	 * @return the manifest
	 * @throws InvalidManifestException if the manifest has problems
	 * @throws UncheckedIOException if the file cannot be read
	 */
	public DegradationManifest load(Path file) {
		try (InputStream input = Files.newInputStream(file)) {
			return loader().withReservedBasePath(this.reservedBasePath)
				.withPlaceholderResolver(resolver(new AtomicInteger()))
				.load(file.toString(), input.readNBytes(ManifestLimits.DEFAULT.maxBytes() + 1));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(file + ": cannot read the file: " + describe(ex), ex);
		}
	}

	private static YamlNode.@Nullable Mapping child(@Nullable YamlNode node, String key) {
		return (value(node, key) instanceof YamlNode.Mapping child) ? child : null;
	}

	private static @Nullable YamlNode value(@Nullable YamlNode node, String key) {
		YamlNode.Entry entry = (node instanceof YamlNode.Mapping mapping) ? mapping.entries().get(key) : null;
		return (entry != null) ? entry.value() : null;
	}

	private UnaryOperator<String> resolver(AtomicInteger unresolved) {
		UnaryOperator<String> placeholders = Placeholders.resolver(this.properties::get);
		return (text) -> {
			try {
				return placeholders.apply(text);
			}
			catch (IllegalArgumentException ex) {
				unresolved.incrementAndGet();
				throw ex;
			}
		};
	}

	private static String describe(IOException ex) {
		if (ex instanceof NoSuchFileException) {
			return "no such file";
		}
		if (ex instanceof AccessDeniedException) {
			return "permission denied";
		}
		return (ex.getMessage() != null) ? ex.getClass().getSimpleName() + ": " + ex.getMessage()
				: ex.getClass().getSimpleName();
	}

}

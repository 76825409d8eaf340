package dev.degradation.manifest;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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

import org.springframework.util.PropertyPlaceholderHelper;

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

	/** The exit status for manifests that are all valid. */
	static final int VALID = 0;

	/** The exit status for a command line that cannot be followed or a file that cannot be read. */
	static final int USAGE_OR_IO_ERROR = 1;

	/** The exit status when a manifest has problems. */
	static final int INVALID = 2;

	private static final String DEFAULT_RESERVED_BASE_PATH = "/actuator";

	private static final String USAGE = """
			Usage: java -jar degradation-manifest-cli.jar [options] <manifest.yaml>...

			Validates degradation manifests as the starter does at startup, without starting the
			application. Prints each problem as file:line:column: yaml.path: message.

			Options:
			  --reserved-base-path <path>  routes at or under this path are rejected; the Actuator base
			                               path of the application (default /actuator, "" for none)
			  --property <name>=<value>    a value for ${name} placeholders; repeatable; also -D<name>=<value>
			  --lenient-placeholders       check only the syntax of placeholders that have no value, and
			                               leave the values that hold them unchecked
			  --print-schema               print the JSON Schema of the manifest, for editors, and exit
			  --help                       print this help and exit

			Exit status: 0 when every manifest is valid, 2 when one has problems, 1 for a usage or I/O error.
			""";

	private final @Nullable String reservedBasePath;

	private final Map<String, String> properties;

	private final boolean lenientPlaceholders;

	private ManifestValidator(@Nullable String reservedBasePath, Map<String, String> properties,
			boolean lenientPlaceholders) {
		this.reservedBasePath = reservedBasePath;
		this.properties = Map.copyOf(properties);
		this.lenientPlaceholders = lenientPlaceholders;
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
		return new ManifestValidator(basePath, this.properties, this.lenientPlaceholders);
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
		return new ManifestValidator(this.reservedBasePath, properties, this.lenientPlaceholders);
	}

	/**
	 * Return a copy that checks only the syntax of a placeholder it has no value for, and leaves
	 * the value that holds it unchecked, instead of reporting it.
	 * @return a new validator
	 */
	public ManifestValidator withLenientPlaceholders() {
		return new ManifestValidator(this.reservedBasePath, this.properties, true);
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

	Check check(Path file) {
		try (InputStream input = Files.newInputStream(file)) {
			// One byte past the limit is enough for the loader to report the file as too large.
			return check(file.toString(), input.readNBytes(ManifestLimits.DEFAULT.maxBytes() + 1));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(file + ": cannot read the file: " + describe(ex), ex);
		}
	}

	Check check(String source, byte[] content) {
		AtomicInteger unresolved = new AtomicInteger();
		ManifestLoader loader = ManifestLoader.standard()
			.withReservedBasePath(this.reservedBasePath)
			.withPlaceholderResolver(resolver(unresolved));
		if (this.lenientPlaceholders) {
			loader = loader.withUnresolvedPlaceholdersUnchecked();
		}
		Problems problems = new Problems(source);
		ManifestLoader.Reading reading = loader.read(source, content, problems);
		return new Check(source, problems.listed(), reading.root(), unresolved.get());
	}

	private UnaryOperator<String> resolver(AtomicInteger unresolved) {
		PropertyPlaceholderHelper helper = new PropertyPlaceholderHelper("${", "}", ":", '\\', false);
		return (text) -> {
			try {
				return helper.replacePlaceholders(text, this.properties::get);
			}
			catch (IllegalArgumentException ex) {
				unresolved.incrementAndGet();
				throw ex;
			}
		};
	}

	/**
	 * Validate the manifest files named on the command line and exit with the status of
	 * {@link #run}.
	 * @param args the command line
	 */
	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err));
	}

	/**
	 * Follow a command line: print the problems of each manifest, or a one-line summary of a valid
	 * one, to {@code out}, and usage and I/O errors to {@code err}.
	 * @return {@link #VALID}, {@link #INVALID} or {@link #USAGE_OR_IO_ERROR}
	 */
	static int run(String[] args, PrintStream out, PrintStream err) {
		ManifestValidator validator = standard();
		List<Path> files = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			String option = arg.contains("=") && arg.startsWith("--") ? arg.substring(0, arg.indexOf('=')) : arg;
			String inlineValue = option.equals(arg) ? null : arg.substring(arg.indexOf('=') + 1);
			switch (option) {
				case "--help", "-h" -> {
					out.print(USAGE);
					return VALID;
				}
				case "--print-schema" -> {
					return printSchema(out, err);
				}
				case "--lenient-placeholders" -> validator = validator.withLenientPlaceholders();
				case "--reserved-base-path", "--property" -> {
					String value = (inlineValue != null) ? inlineValue : (i + 1 < args.length) ? args[++i] : null;
					if (value == null) {
						return usageError(err, "'" + option + "' needs a value");
					}
					if (option.equals("--reserved-base-path")) {
						validator = validator.withReservedBasePath(value.isEmpty() ? null : value);
					}
					else if (!value.contains("=") || value.startsWith("=")) {
						return usageError(err, "'--property " + value + "' must be --property <name>=<value>");
					}
					else {
						validator = validator.withProperty(value.substring(0, value.indexOf('=')),
								value.substring(value.indexOf('=') + 1));
					}
				}
				default -> {
					if (arg.startsWith("-D") && arg.indexOf('=') > 2) {
						validator = validator.withProperty(arg.substring(2, arg.indexOf('=')),
								arg.substring(arg.indexOf('=') + 1));
					}
					else if (arg.startsWith("-") && !arg.equals("-")) {
						return usageError(err, "unknown option '" + arg + "'");
					}
					else {
						files.add(Path.of(arg));
					}
				}
			}
		}
		if (files.isEmpty()) {
			return usageError(err, "no manifest file given");
		}
		int status = VALID;
		for (Path file : files) {
			Check check;
			try {
				check = validator.check(file);
			}
			catch (UncheckedIOException ex) {
				err.println(ex.getMessage());
				status = USAGE_OR_IO_ERROR;
				continue;
			}
			check.problems().forEach(out::println);
			out.println(check.summary());
			if (!check.problems().isEmpty() && status == VALID) {
				status = INVALID;
			}
		}
		out.flush();
		return status;
	}

	private static int printSchema(PrintStream out, PrintStream err) {
		try (InputStream schema = ManifestValidator.class.getClassLoader().getResourceAsStream(SCHEMA_LOCATION)) {
			if (schema == null) {
				err.println("The JSON Schema is missing from the class path: " + SCHEMA_LOCATION);
				return USAGE_OR_IO_ERROR;
			}
			out.print(new String(schema.readAllBytes(), StandardCharsets.UTF_8));
			out.flush();
			return VALID;
		}
		catch (IOException ex) {
			err.println("Cannot read the JSON Schema: " + describe(ex));
			return USAGE_OR_IO_ERROR;
		}
	}

	private static int usageError(PrintStream err, String message) {
		err.println("degradation-manifest: " + message);
		err.println("Try --help.");
		return USAGE_OR_IO_ERROR;
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

	/**
	 * The outcome of validating one manifest.
	 *
	 * @param source the description of the file
	 * @param problems every problem, in file order; empty when the manifest is valid
	 * @param root the YAML tree, or {@code null} when the file could not be read into one
	 * @param unresolved how many values hold a placeholder that could not be resolved
	 */
	record Check(String source, List<ManifestProblem> problems, @Nullable YamlNode root, int unresolved) {

		/**
		 * A line that says whether the manifest is valid and, if so, what it declares, counted in
		 * the file so that values left unchecked (lenient placeholders) are counted too.
		 */
		String summary() {
			if (!this.problems.isEmpty()) {
				return this.source + ": invalid (" + count(this.problems.size(), "problem", "problems") + ")";
			}
			YamlNode.Mapping tiers = child(this.root, ManifestKeys.TIERS);
			int routes = 0;
			if (tiers != null) {
				for (YamlNode.Entry tier : tiers.entries().values()) {
					if (value(tier.value(), ManifestKeys.ROUTES) instanceof YamlNode.Sequence sequence) {
						routes += sequence.items().size();
					}
				}
			}
			YamlNode.Mapping dependencies = child(this.root, ManifestKeys.DEPENDENCIES);
			String unchecked = (this.unresolved > 0) ? "; " + count(this.unresolved, "value", "values")
					+ " with unresolved placeholders left unchecked" : "";
			return this.source + ": valid ("
					+ count((dependencies != null) ? dependencies.entries().size() : 0, "dependency", "dependencies")
					+ ", " + count((tiers != null) ? tiers.entries().size() : 0, "tier", "tiers") + ", "
					+ count(routes, "route", "routes") + unchecked + ")";
		}

		private static YamlNode.@Nullable Mapping child(@Nullable YamlNode node, String key) {
			return (value(node, key) instanceof YamlNode.Mapping child) ? child : null;
		}

		private static @Nullable YamlNode value(@Nullable YamlNode node, String key) {
			YamlNode.Entry entry = (node instanceof YamlNode.Mapping mapping) ? mapping.entries().get(key) : null;
			return (entry != null) ? entry.value() : null;
		}

		private static String count(int count, String one, String many) {
			return count + " " + ((count == 1) ? one : many);
		}

	}

}

package dev.degradation.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.ManifestCheck;
import dev.degradation.manifest.ManifestValidator;

/**
 * The command line that validates manifest files as the starter does at startup, without
 * starting an application: {@code java -jar degradation-manifest-cli.jar [options] <manifest.yaml>...}.
 * It prints each problem as {@code file:line:column: yaml.path: message} and exits with
 * {@link #VALID}, {@link #INVALID} or {@link #USAGE_OR_IO_ERROR}.
 *
 * <p>What it prints is UTF-8, whatever the platform's encoding or locale: a CI job reads the same
 * bytes on every machine, and a manifest's non-ASCII text (a route, a name, a body) is never
 * turned into question marks.
 */
public final class ManifestCli {

	/** The exit status for manifests that are all valid. */
	public static final int VALID = 0;

	/** The exit status for a command line that cannot be followed or a file that cannot be read. */
	public static final int USAGE_OR_IO_ERROR = 1;

	/** The exit status when a manifest has problems. */
	public static final int INVALID = 2;

	private static final String USAGE = """
			Usage: java -jar degradation-manifest-cli.jar [options] <manifest.yaml>...
			       java -jar degradation-manifest-cli.jar walk [<manifest.yaml>] --base-url <url> [--property <name>=<value>]...
			                    [--simulation-token <token>] [--per-request]

			Validates degradation manifests as the starter does at startup, without starting the
			application. Prints each problem as file:line:column: yaml.path: message, in UTF-8
			whatever the platform's encoding.

			Options:
			  --reserved-base-path <path>  routes at or under this path are rejected; the Actuator base
			                               path of the application (default /actuator, "" for none)
			  --property <name>=<value>    a value for ${name} placeholders; repeatable; also -D<name>=<value>
			  --lenient-placeholders       check only the syntax of placeholders that have no value, and
			                               leave the values that hold them unchecked
			  --print-schema               print the JSON Schema of the manifest, for editors, and exit
			  --help                       print this help and exit

			walk drives the running service at <url> through its shed sequence and checks every route
			at every level. Where the service lets requests simulate for themselves
			(degradation.simulation.requests.enabled) and the token is given (--simulation-token, or
			the DEGRADATION_SIMULATION_TOKEN environment variable), each request asks for its level
			itself and the service's level never moves: safe on a service others use. --per-request
			insists on that, and fails rather than move the level. Otherwise walk switches the
			Actuator's simulation (it needs management.endpoint.degradation.access=unrestricted), and
			restores it as it found it. It prints each failure with the route's position in the
			manifest. Without a manifest file it checks the routes of the manifest the service runs,
			as its endpoint reports them. A route that matches no handler of the service fails.

			Exit status: 0 when every manifest is valid (walk: every route degrades as declared), 2 when
			one has problems (walk: a route does not), 1 for a usage or I/O error.
			""";

	private ManifestCli() {
	}

	/**
	 * Validate the manifest files named on the command line and exit with the status of
	 * {@link #run}.
	 * @param args the command line
	 */
	public static void main(String[] args) {
		PrintStream out = utf8(FileDescriptor.out);
		PrintStream err = utf8(FileDescriptor.err);
		int status = run(args, out, err);
		out.flush();
		err.flush();
		System.exit(status);
	}

	/**
	 * Return a stream that writes UTF-8 to a standard stream. {@code System.out} encodes with
	 * {@code stdout.encoding}, which follows the locale: without a UTF-8 locale (a bare CI
	 * container) it would print '?' for every character outside ASCII.
	 */
	private static PrintStream utf8(FileDescriptor descriptor) {
		return new PrintStream(new BufferedOutputStream(new FileOutputStream(descriptor)), false,
				StandardCharsets.UTF_8);
	}

	/**
	 * Follow a command line: print the problems of each manifest, or a one-line summary of a valid
	 * one, to {@code out}, and usage and I/O errors to {@code err}.
	 * @param args the command line
	 * @param out where problems and summaries go
	 * @param err where usage and I/O errors go
	 * @return {@link #VALID}, {@link #INVALID} or {@link #USAGE_OR_IO_ERROR}
	 */
	public static int run(String[] args, PrintStream out, PrintStream err) {
		if (args.length > 0 && args[0].equals("walk")) {
			return walk(args, out, err);
		}
		ManifestValidator validator = ManifestValidator.standard();
		List<Path> files = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			String option = arg.contains("=") && arg.startsWith("--") ? arg.substring(0, arg.indexOf('=')) : arg;
			String inlineValue = option.equals(arg) ? null : arg.substring(arg.indexOf('=') + 1);
			switch (option) {
				case "--help", "-h" -> {
					out.print(USAGE);
					out.flush();
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
			ManifestCheck check;
			try {
				check = validator.check(file);
			}
			catch (UncheckedIOException ex) {
				err.println(ex.getMessage());
				status = USAGE_OR_IO_ERROR;
				continue;
			}
			catch (RuntimeException | StackOverflowError ex) {
				// Whatever made the manifest impossible to check, it is not one to deploy: the status
				// says invalid, as it does for every other manifest the starter would refuse.
				out.println(file + ": cannot be checked: " + ex);
				out.println(file + ": invalid (1 problem)");
				status = (status == VALID) ? INVALID : status;
				continue;
			}
			check.problems().forEach(out::println);
			out.println(summary(check));
			if (!check.isValid() && status == VALID) {
				status = INVALID;
			}
		}
		out.flush();
		err.flush();
		return status;
	}

	/**
	 * A line that says whether the manifest is valid and, if so, what it declares.
	 */
	private static String summary(ManifestCheck check) {
		if (!check.isValid()) {
			return check.source() + ": invalid (" + count(check.problems().size(), "problem", "problems") + ")";
		}
		String unchecked = (check.unresolvedPlaceholders() > 0) ? "; "
				+ count(check.unresolvedPlaceholders(), "value", "values") + " with unresolved placeholders left unchecked"
				: "";
		return check.source() + ": valid (" + count(check.dependencies(), "dependency", "dependencies") + ", "
				+ count(check.tiers(), "tier", "tiers") + ", " + count(check.routes(), "route", "routes") + unchecked
				+ ")";
	}

	private static String count(int count, String one, String many) {
		return count + " " + ((count == 1) ? one : many);
	}

	private static int printSchema(PrintStream out, PrintStream err) {
		try (InputStream schema = ManifestValidator.class.getClassLoader()
			.getResourceAsStream(ManifestValidator.SCHEMA_LOCATION)) {
			if (schema == null) {
				err.println("The JSON Schema is missing from the class path: " + ManifestValidator.SCHEMA_LOCATION);
				err.flush();
				return USAGE_OR_IO_ERROR;
			}
			// The schema is UTF-8 and printed as its bytes, whatever the stream's encoding.
			schema.transferTo(out);
			out.flush();
			return VALID;
		}
		catch (IOException ex) {
			err.println("Cannot read the JSON Schema: " + describe(ex));
			err.flush();
			return USAGE_OR_IO_ERROR;
		}
	}

	/**
	 * {@code walk [<manifest>] --base-url <url> [--property name=value]...}: drive a running service
	 * through its shed sequence and check every route at every level ({@link ManifestWalk}); without
	 * a manifest file, the routes are those the service reports.
	 */
	private static int walk(String[] args, PrintStream out, PrintStream err) {
		ManifestValidator validator = ManifestValidator.standard();
		Path file = null;
		URI base = null;
		String token = System.getenv("DEGRADATION_SIMULATION_TOKEN");
		boolean perRequest = false;
		for (int i = 1; i < args.length; i++) {
			String arg = args[i];
			if (arg.equals("--per-request")) {
				perRequest = true;
			}
			else if (arg.startsWith("--simulation-token=")) {
				token = arg.substring("--simulation-token=".length());
			}
			else if ((arg.equals("--base-url") || arg.equals("--property") || arg.equals("--simulation-token"))
					&& i + 1 < args.length) {
				String value = args[++i];
				if (arg.equals("--simulation-token")) {
					token = value;
				}
				else if (arg.equals("--base-url")) {
					base = URI.create(value.endsWith("/") ? value : value + "/");
				}
				else if (value.indexOf('=') > 0) {
					validator = validator.withProperty(value.substring(0, value.indexOf('=')),
							value.substring(value.indexOf('=') + 1));
				}
				else {
					return usageError(err, "'--property " + value + "' must be --property <name>=<value>");
				}
			}
			else if (arg.startsWith("--base-url=")) {
				String value = arg.substring("--base-url=".length());
				base = URI.create(value.endsWith("/") ? value : value + "/");
			}
			else if (arg.startsWith("-")) {
				return usageError(err, "unknown option '" + arg + "' for walk");
			}
			else if (file == null) {
				file = Path.of(arg);
			}
			else {
				return usageError(err, "walk takes one manifest, but got '" + file + "' and '" + arg + "'");
			}
		}
		if (base == null) {
			return usageError(err, "walk needs --base-url <url of the running service>");
		}
		if (token != null && token.isBlank()) {
			token = null;
		}
		if (perRequest && token == null) {
			return usageError(err, "--per-request needs the service's token: --simulation-token <token> or "
					+ "DEGRADATION_SIMULATION_TOKEN");
		}
		ManifestWalk.Simulating simulating = new ManifestWalk.Simulating(token, perRequest);
		if (file == null) {
			int status = new ManifestWalk(null, base, out, simulating).walk();
			out.flush();
			return status;
		}
		DegradationManifest manifest;
		try {
			manifest = validator.load(file);
		}
		catch (InvalidManifestException ex) {
			ex.getProblems().forEach(out::println);
			out.println(file + ": invalid (" + count(ex.getProblems().size(), "problem", "problems") + ")");
			out.flush();
			return INVALID;
		}
		catch (UncheckedIOException ex) {
			err.println(ex.getMessage());
			err.flush();
			return USAGE_OR_IO_ERROR;
		}
		int status = new ManifestWalk(manifest, base, out, simulating).walk();
		out.flush();
		return status;
	}

	private static int usageError(PrintStream err, String message) {
		err.println("degradation-manifest: " + message);
		err.println("Try --help.");
		err.flush();
		return USAGE_OR_IO_ERROR;
	}

	private static String describe(IOException ex) {
		String message = ex.getMessage();
		return (message != null) ? ex.getClass().getSimpleName() + ": " + message : ex.getClass().getSimpleName();
	}

}

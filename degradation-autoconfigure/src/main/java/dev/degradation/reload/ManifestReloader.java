package dev.degradation.reload;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.handler.ManifestVerification;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.HealthSourceKey;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.manifest.ManifestProblem;
import dev.degradation.manifest.Placeholders;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.FallbackKinds;
import dev.degradation.web.RouteTable;
import dev.degradation.web.StaleAnswers;

/**
 * Loads the manifest from its configured location, at startup and again on request (the
 * Actuator) or when the Environment changes (a Spring Cloud refresh), without a restart. A new
 * manifest is validated whole and compiled before anything changes; then the decision's route table
 * and the engine's manifest are swapped together, so that no request sees a half-built table. A
 * manifest with any problem is refused with every positioned problem, and the active one stays
 * whole. Reloads are serialized.
 */
public class ManifestReloader {

	private static final Log logger = LogFactory.getLog(ManifestReloader.class);

	private final ResourceLoader resourceLoader;

	private final Environment environment;

	private final DegradationEngine engine;

	private final @Nullable RequestDecider decider;

	private final StaleAnswers staleAnswers;

	private final Supplier<@Nullable ManifestVerification> verification;

	private final Supplier<@Nullable String> actuatorBasePath;

	private volatile Supplier<List<ReplacementCheck>> replacementChecks = List::of;

	private final AtomicLong reloads = new AtomicLong();

	private final AtomicLong refusals = new AtomicLong();

	private FallbackKinds kinds = FallbackKinds.builtIn();

	private List<HealthSourceKey> healthSourceKeys = List.of();

	private String loadedLocation;

	private byte[] loadedContent;

	/**
	 * Create a reloader of the manifest the engine was started with.
	 * @param resourceLoader how the location is resolved
	 * @param environment where the location and the placeholders come from
	 * @param engine the engine whose manifest is replaced
	 * @param decider the request decision whose route table is replaced, or {@code null} without one
	 * @param staleAnswers where the {@code stale} routes of a new manifest keep their copies
	 * @param loadedLocation the location the active manifest was loaded from
	 * @param loadedContent its bytes, to tell whether the file changed
	 * @param verification the check of the manifest against the application's handlers, which a
	 * new manifest passes as the first did at startup; {@code null} from the supplier without one
	 * @param actuatorBasePath the Actuator's base path, under which no route may be, read at each
	 * reload (a refresh may rebind it); {@code null} from the supplier without the Actuator
	 */
	public ManifestReloader(ResourceLoader resourceLoader, Environment environment, DegradationEngine engine,
			@Nullable RequestDecider decider, StaleAnswers staleAnswers, String loadedLocation,
			byte[] loadedContent, Supplier<@Nullable ManifestVerification> verification,
			Supplier<@Nullable String> actuatorBasePath) {
		this.resourceLoader = resourceLoader;
		this.environment = environment;
		this.engine = engine;
		this.decider = decider;
		this.staleAnswers = staleAnswers;
		this.loadedLocation = loadedLocation;
		this.loadedContent = loadedContent;
		this.verification = verification;
		this.actuatorBasePath = actuatorBasePath;
	}

	/**
	 * Load the manifest from the configured location and make it active.
	 * @param by who asks, for the log line
	 * @return what happened
	 */
	public synchronized Outcome reload(String by) {
		return load(by, false);
	}

	/**
	 * Reload only when the configured location or the file's content changed; called when the
	 * Environment changes.
	 * @return what happened
	 */
	public synchronized Outcome reloadIfChanged() {
		return load("a configuration refresh", true);
	}

	/**
	 * Return how many reloads made a manifest active.
	 * @return the count since start
	 */
	public long reloads() {
		return this.reloads.get();
	}

	/**
	 * Return how many reloads were refused.
	 * @return the count since start
	 */
	public long refusals() {
		return this.refusals.get();
	}

	private Outcome load(String by, boolean onlyIfChanged) {
		ManifestLocation location = ManifestLocation.of(this.environment);
		byte[] content;
		try {
			content = read(location);
		}
		catch (IOException ex) {
			return refused(by, location.location(), List.of(), "could not read it: " + ex.getMessage());
		}
		if (onlyIfChanged && location.location().equals(this.loadedLocation)
				&& Arrays.equals(content, this.loadedContent)) {
			return new Outcome(Outcome.Status.UNCHANGED, location.location(), List.of(), "");
		}
		DegradationManifest manifest;
		RouteTable table;
		try {
			manifest = loader(this.environment, this.actuatorBasePath.get(), this.kinds, this.healthSourceKeys)
				.load(location.resourceLocation(), content);
			table = RouteTable.compile(manifest, this.staleAnswers, this.kinds);
		}
		catch (InvalidManifestException ex) {
			return refused(by, location.location(), ex.getProblems(), ex.getProblems().size() + " problem"
					+ ((ex.getProblems().size() == 1) ? "" : "s"));
		}
		catch (RuntimeException ex) {
			return refused(by, location.location(), List.of(), ex.getMessage());
		}
		ManifestVerification verification = this.verification.get();
		List<ManifestProblem> unserved = (verification != null) ? verification.checkReplacement(manifest) : List.of();
		if (!unserved.isEmpty()) {
			return refused(by, location.location(), unserved, unserved.size() + " route"
					+ ((unserved.size() == 1) ? "" : "s") + " that no handler of the application serves as written "
					+ "('degradation.verify=strict')");
		}
		List<ManifestProblem> found = new ArrayList<>();
		this.replacementChecks.get().forEach((check) -> found.addAll(check.problems(manifest)));
		if (!found.isEmpty()) {
			return refused(by, location.location(), found, found.size() + " problem"
					+ ((found.size() == 1) ? "" : "s") + " that the running application finds");
		}
		if (this.decider != null) {
			this.decider.prepare(table);
		}
		this.engine.replace(manifest);
		this.loadedLocation = location.location();
		this.loadedContent = content;
		this.reloads.incrementAndGet();
		logger.info("Degradation manifest '" + manifest.source() + "' reloaded by " + by + ": "
				+ manifest.dependencies().size() + " dependencies, " + manifest.tiers().size() + " tiers, "
				+ manifest.routes().size() + " routes");
		return new Outcome(Outcome.Status.RELOADED, location.location(), List.of(), "");
	}

	private Outcome refused(String by, String location, List<ManifestProblem> problems, String why) {
		this.refusals.incrementAndGet();
		StringBuilder message = new StringBuilder("Refused the degradation manifest '" + location + "' (reload by "
				+ by + "): " + why + "; the active manifest stays");
		problems.forEach((problem) -> message.append(System.lineSeparator()).append("    ").append(problem));
		logger.warn(message);
		return new Outcome(Outcome.Status.REFUSED, location, problems, why);
	}

	private byte[] read(ManifestLocation location) throws IOException {
		Resource resource = location.resolve(this.resourceLoader);
		if (!resource.exists()) {
			throw new IOException("nothing at '" + location.location() + "'");
		}
		try (InputStream input = resource.getInputStream()) {
			return input.readAllBytes();
		}
	}

	/**
	 * Read and compile a reloaded manifest with the application's fallback kinds and health
	 * sources' keys, as the first one was.
	 * @param kinds the fallback kinds
	 * @param healthSourceKeys the keys of the health sources
	 */
	public void setPlugins(FallbackKinds kinds, List<HealthSourceKey> healthSourceKeys) {
		this.kinds = kinds;
		this.healthSourceKeys = List.copyOf(healthSourceKeys);
	}

	/**
	 * Return the loader the starter uses: placeholders from the Environment, the Actuator's base
	 * path reserved.
	 * @param environment where placeholders are resolved from
	 * @param actuatorBasePath the Actuator's base path, or {@code null} without the Actuator
	 * @return the loader
	 */
	public static ManifestLoader loader(Environment environment, @Nullable String actuatorBasePath) {
		return ManifestLoader.standard()
			.withPlaceholderResolver(Placeholders.resolver(asWritten(environment)))
			.withReservedBasePath(actuatorBasePath);
	}

	/**
	 * Return the loader the starter uses, knowing the application's fallback kinds and the keys of
	 * its health sources.
	 * @param environment where placeholders are resolved from
	 * @param actuatorBasePath the Actuator's base path, or {@code null} without the Actuator
	 * @param kinds the fallback kinds
	 * @param healthSourceKeys the keys of the health sources
	 * @return the loader
	 */
	public static ManifestLoader loader(Environment environment, @Nullable String actuatorBasePath,
			FallbackKinds kinds, List<HealthSourceKey> healthSourceKeys) {
		return kinds.loader(loader(environment, actuatorBasePath)).withHealthSourceKeys(healthSourceKeys);
	}

	/**
	 * The value of a property as its source holds it, its own placeholders left for the bounded
	 * resolver: the Environment's {@code getProperty} would resolve them by a recursion of its own,
	 * which no bound reaches.
	 */
	private static Function<String, @Nullable String> asWritten(Environment environment) {
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return environment::getProperty;
		}
		return (name) -> {
			for (PropertySource<?> source : configurable.getPropertySources()) {
				Object value = source.getProperty(name);
				if (value != null) {
					return String.valueOf(value);
				}
			}
			return null;
		};
	}

	/**
	 * Check every manifest that is to replace the active one with these checks too, beside the
	 * check against the handlers.
	 * @param checks the checks, asked at each reload
	 */
	public void setReplacementChecks(Supplier<List<ReplacementCheck>> checks) {
		this.replacementChecks = checks;
	}

	/**
	 * A check of a manifest that is to replace the active one, against what only the running
	 * application knows (the meters of its pressure rules, say), under the mode of
	 * {@code degradation.verify}: it returns the problems that refuse the manifest, and warns of
	 * those it lets through itself.
	 */
	@FunctionalInterface
	public interface ReplacementCheck {

		/**
		 * Return the problems that refuse a manifest.
		 * @param replacement the manifest that is to become active
		 * @return the problems, empty when it may become active
		 */
		List<ManifestProblem> problems(DegradationManifest replacement);

	}

	/**
	 * What a reload did.
	 *
	 * @param status whether the manifest was reloaded, refused or unchanged
	 * @param location the location it was loaded from
	 * @param problems every problem of a refused manifest, with its position
	 * @param reason why it was refused, empty otherwise
	 */
	public record Outcome(Status status, String location, List<ManifestProblem> problems, String reason) {

		public Outcome {
			problems = List.copyOf(problems);
		}

		/**
		 * Whether a reload made a manifest active.
		 */
		public enum Status {

			/** The new manifest is active. */
			RELOADED,

			/** The new manifest has problems; the active one stays. */
			REFUSED,

			/** Neither the location nor the file changed. */
			UNCHANGED

		}

	}

}

package dev.degradation.manifest;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * Turns a positioned YAML tree into a {@link DegradationManifest}, checking every rule on the way
 * and recording each problem instead of stopping at the first.
 */
final class ManifestReader {

	static final String DEFAULTS = "defaults";

	static final String DEPENDENCIES = "dependencies";

	static final String TIERS = "tiers";

	static final String HEALTH_CHECK_INTERVAL_MS = "health_check_interval_ms";

	static final String FAILURE_THRESHOLD = "failure_threshold";

	static final String RECOVERY_THRESHOLD = "recovery_threshold";

	static final String HYSTERESIS_SECONDS = "hysteresis_seconds";

	static final String FAILED_DEPENDENCY_SHEDS = "failed_dependency_sheds";

	static final String HEALTH_URL = "health_url";

	static final String TIMEOUT_MS = "timeout_ms";

	static final String WINDOW_SECONDS = "window_seconds";

	static final String MIN_SAMPLES = "min_samples";

	static final String PRIORITY = "priority";

	static final String ROUTES = "routes";

	static final String PATH = "path";

	static final String METHOD = "method";

	static final String FALLBACK = "fallback";

	static final String STATIC_RESPONSE = "static_response";

	static final String REQUIRES = "requires";

	private static final Set<String> ROOT_KEYS = Set.of(DEFAULTS, DEPENDENCIES, TIERS);

	private static final Set<String> DEFAULTS_KEYS = Set.of(HEALTH_CHECK_INTERVAL_MS, TIMEOUT_MS, WINDOW_SECONDS,
			MIN_SAMPLES, FAILURE_THRESHOLD, RECOVERY_THRESHOLD, HYSTERESIS_SECONDS, FAILED_DEPENDENCY_SHEDS);

	private static final Set<String> DEPENDENCY_KEYS = Set.of(HEALTH_URL, HEALTH_CHECK_INTERVAL_MS, TIMEOUT_MS,
			WINDOW_SECONDS, MIN_SAMPLES, FAILURE_THRESHOLD, RECOVERY_THRESHOLD);

	private static final Set<String> TIER_KEYS = Set.of(PRIORITY, ROUTES);

	private static final Set<String> ROUTE_KEYS = Set.of(PATH, METHOD, FALLBACK, STATIC_RESPONSE, REQUIRES);

	private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

	private static final Set<String> FALLBACKS = Set.of(Fallback.Drop.KIND, Fallback.Static.KIND);

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

	/**
	 * Text that a reader takes for a number but YAML (as Jackson reads it) does not: quoted
	 * numbers, hexadecimal, octal, binary, '_' separators, a leading '+' or '.', infinity.
	 */
	private static final Pattern NUMBER_LIKE = Pattern
		.compile("(?i)[-+]?(0x[0-9a-f_]+|0o[0-7_]+|0b[01_]+|[0-9_]*\\.?[0-9_]+(e[-+]?[0-9]+)?|\\.inf|\\.nan)");

	/**
	 * The name of a capture variable in a path pattern ({@code id} in {@code {id}} and
	 * {@code {id:\d+}}, {@code rest} in {@code {*rest}}): patterns that differ only there match the
	 * same requests.
	 */
	private static final Pattern CAPTURE_NAME = Pattern
		.compile("\\{(\\*?)\\p{javaJavaIdentifierStart}[^{}:]*(?=[:}])");

	private static final JsonFactory JSON = new JsonFactory();

	private final String source;

	private final Problems problems;

	private final UnaryOperator<String> placeholders;

	private final @Nullable String reservedBasePath;

	private final boolean placeholdersRequired;

	/**
	 * Create a reader for one manifest.
	 * @param placeholdersRequired whether a placeholder the resolver cannot resolve is a problem;
	 * when not, the value that holds it is left unchecked, for validating a manifest away from the
	 * environment that will resolve it
	 */
	ManifestReader(String source, Problems problems, UnaryOperator<String> placeholders,
			@Nullable String reservedBasePath, boolean placeholdersRequired) {
		this.source = source;
		this.problems = problems;
		this.placeholders = placeholders;
		this.placeholdersRequired = placeholdersRequired;
		this.reservedBasePath = (reservedBasePath != null && reservedBasePath.endsWith("/"))
				? reservedBasePath.substring(0, reservedBasePath.length() - 1) : reservedBasePath;
	}

	@Nullable DegradationManifest read(YamlNode root) {
		if (!(root instanceof YamlNode.Mapping mapping)) {
			this.problems.add(root.position(), "", "the manifest must be a mapping with the keys 'defaults', "
					+ "'dependencies' and 'tiers', but it is " + root.describe());
			return null;
		}
		checkKeys(mapping, "", ROOT_KEYS);
		ManifestDefaults defaults = readDefaults(mapping);
		Set<String> dependencyNames = new LinkedHashSet<>();
		List<Dependency> dependencies = readDependencies(mapping, defaults.healthCheck(), dependencyNames);
		List<Tier> tiers = readTiers(mapping, dependencyNames);
		return new DegradationManifest(this.source, defaults, dependencies, tiers);
	}

	private ManifestDefaults readDefaults(YamlNode.Mapping root) {
		ManifestDefaults standard = ManifestDefaults.STANDARD;
		YamlNode.Mapping defaults = optionalMapping(root, DEFAULTS, DEFAULTS);
		if (defaults == null) {
			return standard;
		}
		checkKeys(defaults, DEFAULTS, DEFAULTS_KEYS);
		HealthCheck healthCheck = readHealthCheck(defaults, DEFAULTS, standard.healthCheck());
		Long hysteresis = readLong(defaults, DEFAULTS, HYSTERESIS_SECONDS, 0, Integer.MAX_VALUE,
				standard.hysteresis().toSeconds());
		return new ManifestDefaults(healthCheck,
				(hysteresis != null) ? Duration.ofSeconds(hysteresis) : standard.hysteresis(),
				readShedScope(defaults, standard.failedDependencySheds()));
	}

	private ShedScope readShedScope(YamlNode.Mapping defaults, ShedScope standard) {
		YamlNode.Entry entry = defaults.entries().get(FAILED_DEPENDENCY_SHEDS);
		if (entry == null) {
			return standard;
		}
		String path = DEFAULTS + "." + FAILED_DEPENDENCY_SHEDS;
		String value = readString(entry.value(), path);
		if (value == null) {
			return standard;
		}
		for (ShedScope scope : ShedScope.values()) {
			if (scope.key().equals(value)) {
				return scope;
			}
		}
		Set<String> known = new LinkedHashSet<>();
		for (ShedScope scope : ShedScope.values()) {
			known.add(scope.key());
		}
		this.problems.add(entry.value().position(), path, ProblemText.quote(value) + " is not what a failed "
				+ "dependency can shed; use 'routes' (only the routes that require it) or 'tiers' (its tier and "
				+ "every tier below it)" + Suggestions.hint(value, known));
		return standard;
	}

	/**
	 * Read the health check keys of {@code defaults} or of one dependency; a key left out keeps its
	 * value from {@code base} (the standard values, or the manifest's defaults).
	 */
	private HealthCheck readHealthCheck(YamlNode.Mapping mapping, String path, HealthCheck base) {
		Long interval = readLong(mapping, path, HEALTH_CHECK_INTERVAL_MS, 1, Integer.MAX_VALUE,
				base.interval().toMillis());
		Long timeout = readLong(mapping, path, TIMEOUT_MS, 1, Integer.MAX_VALUE, base.timeout().toMillis());
		Long window = readLong(mapping, path, WINDOW_SECONDS, 1, 86_400, base.window().toSeconds());
		Long minSamples = readLong(mapping, path, MIN_SAMPLES, 1, 10_000, base.minSamples());
		Double failure = readFraction(mapping, path, FAILURE_THRESHOLD, false, base.failureThreshold());
		Double recovery = readFraction(mapping, path, RECOVERY_THRESHOLD, true, base.recoveryThreshold());
		if (failure != null && recovery != null && recovery >= failure) {
			YamlNode.Entry recoveryEntry = mapping.entries().get(RECOVERY_THRESHOLD);
			YamlNode.Entry failureEntry = mapping.entries().get(FAILURE_THRESHOLD);
			// Point at the value the author wrote here; if neither is, the problem was reported where
			// both values come from.
			YamlNode.Entry written = (recoveryEntry != null) ? recoveryEntry : failureEntry;
			if (written != null) {
				this.problems.add(written.value().position(), path + "." + written.key(), "'"
						+ RECOVERY_THRESHOLD + "' (" + recovery + ((recoveryEntry != null) ? "" : ", the default")
						+ ") must be lower than '" + FAILURE_THRESHOLD + "' (" + failure
						+ ((failureEntry != null) ? "" : ", the default")
						+ ") so that a dependency cannot flap between failed and recovered on one probe");
			}
		}
		// Probes of one dependency start an interval after the previous one ended, and a probe that
		// gets no answer ends at its timeout: while a dependency hangs, its window holds only this
		// many results. With fewer than min_samples a hanging dependency would never be judged
		// failed. A value that is already reported (or left unchecked) takes no part: the problem
		// would be about a number the author did not write.
		if (window != null && interval != null && timeout != null && minSamples != null) {
			// Rounded down: the time a probe takes to be aborted, recorded and scheduled again
			// makes the real cycle a little longer than interval + timeout.
			long period = interval + timeout;
			long whileHanging = window * 1000 / period;
			if (minSamples > whileHanging) {
				YamlNode.Entry written = firstWritten(mapping, MIN_SAMPLES, WINDOW_SECONDS, TIMEOUT_MS,
						HEALTH_CHECK_INTERVAL_MS);
				if (written != null) {
					this.problems.add(written.value().position(), path + "." + written.key(), "'" + MIN_SAMPLES
							+ "' (" + minSamples + ") can never be reached while the dependency does not answer: a "
							+ window + " s window then holds only " + whileHanging + ((whileHanging == 1) ? " probe"
									: " probes")
							+ ", each taking its " + timeout + " ms timeout and the " + interval
							+ " ms interval, so a hanging dependency would never be judged failed; lower '"
							+ MIN_SAMPLES + "', widen '" + WINDOW_SECONDS + "' or shorten '" + TIMEOUT_MS + "'");
				}
			}
		}
		return new HealthCheck((interval != null) ? Duration.ofMillis(interval) : base.interval(),
				(timeout != null) ? Duration.ofMillis(timeout) : base.timeout(),
				(window != null) ? Duration.ofSeconds(window) : base.window(),
				(minSamples != null) ? minSamples.intValue() : base.minSamples(),
				(failure != null) ? failure : base.failureThreshold(),
				(recovery != null) ? recovery : base.recoveryThreshold());
	}

	private static YamlNode.@Nullable Entry firstWritten(YamlNode.Mapping mapping, String... keys) {
		for (String key : keys) {
			YamlNode.Entry entry = mapping.entries().get(key);
			if (entry != null) {
				return entry;
			}
		}
		return null;
	}

	/**
	 * Read the dependencies, adding the name of every declared one to {@code names}, also of those
	 * with problems of their own, so that a route requiring them is not told they are undeclared.
	 */
	private List<Dependency> readDependencies(YamlNode.Mapping root, HealthCheck defaults, Set<String> names) {
		YamlNode.Mapping dependencies = optionalMapping(root, DEPENDENCIES, DEPENDENCIES);
		if (dependencies == null) {
			return List.of();
		}
		List<Dependency> result = new ArrayList<>();
		for (YamlNode.Entry entry : dependencies.entries().values()) {
			String path = DEPENDENCIES + "." + entry.key();
			names.add(entry.key());
			checkName(entry, path, "dependency");
			if (!(entry.value() instanceof YamlNode.Mapping dependency)) {
				this.problems.add(entry.value().position(), path, "a dependency must be a mapping with '"
						+ HEALTH_URL + "' and '" + TIMEOUT_MS + "', but it is " + entry.value().describe());
				continue;
			}
			checkKeys(dependency, path, DEPENDENCY_KEYS);
			URI healthUrl = readHealthUrl(dependency, path);
			HealthCheck healthCheck = readHealthCheck(dependency, path, defaults);
			if (healthUrl != null) {
				result.add(new Dependency(entry.key(), healthUrl, healthCheck, entry.keyPosition()));
			}
		}
		return result;
	}

	private @Nullable URI readHealthUrl(YamlNode.Mapping dependency, String path) {
		YamlNode.Entry entry = dependency.entries().get(HEALTH_URL);
		if (entry == null) {
			this.problems.add(dependency.position(), path + "." + HEALTH_URL, "missing '" + HEALTH_URL
					+ "': the absolute http(s) URL that answers 2xx when the dependency is healthy");
			return null;
		}
		String text = readString(entry.value(), path + "." + HEALTH_URL);
		if (text == null) {
			return null;
		}
		String reason = "";
		try {
			URI uri = new URI(text);
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
			if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
				return uri;
			}
		}
		catch (URISyntaxException ex) {
			// The index is not given: for the authority it is where the authority starts, not the culprit.
			reason = " (" + ex.getReason().toLowerCase(Locale.ROOT) + ")";
		}
		this.problems.add(entry.value().position(), path + "." + HEALTH_URL, ProblemText.quote(text)
				+ " is not an absolute http or https URL" + reason
				+ "; write one such as http://recommendations:8080/healthz");
		return null;
	}

	private List<Tier> readTiers(YamlNode.Mapping root, Set<String> dependencyNames) {
		YamlNode.Entry tiersEntry = root.entries().get(TIERS);
		if (tiersEntry == null) {
			this.problems.add(root.position(), TIERS, "missing 'tiers': the manifest must declare at least one "
					+ "tier of degradable routes");
			return List.of();
		}
		if (!(tiersEntry.value() instanceof YamlNode.Mapping tiers)) {
			this.problems.add(tiersEntry.value().position(), TIERS,
					"'tiers' must be a mapping of tier names to tiers, but it is " + tiersEntry.value().describe());
			return List.of();
		}
		if (tiers.entries().isEmpty()) {
			this.problems.add(tiers.position(), TIERS, "'tiers' is empty; declare at least one tier");
		}
		List<Tier> result = new ArrayList<>();
		Map<Integer, YamlNode.Entry> tiersByPriority = new HashMap<>();
		Map<String, Route> routesByKey = new HashMap<>();
		for (YamlNode.Entry entry : tiers.entries().values()) {
			String path = TIERS + "." + entry.key();
			checkName(entry, path, "tier");
			if (!(entry.value() instanceof YamlNode.Mapping tier)) {
				this.problems.add(entry.value().position(), path, "a tier must be a mapping with '" + PRIORITY
						+ "' and '" + ROUTES + "', but it is " + entry.value().describe());
				continue;
			}
			checkKeys(tier, path, TIER_KEYS);
			Long priority = readRequiredLong(tier, path, PRIORITY, 1, 1000,
					"the shed order of the tier, 1 or more; lower priorities are shed first");
			if (priority != null) {
				YamlNode.Entry previous = tiersByPriority.putIfAbsent(priority.intValue(), entry);
				if (previous != null) {
					this.problems.add(tier.entries().get(PRIORITY).value().position(), path + "." + PRIORITY,
							"priority " + priority + " is already used by tier " + ProblemText.quote(previous.key())
									+ " (line " + previous.keyPosition().line()
									+ "); give each tier its own priority so the shed order is unambiguous");
				}
			}
			List<Route> routes = readRoutes(tier, entry.key(), path, dependencyNames, routesByKey);
			if (priority != null) {
				result.add(new Tier(entry.key(), priority.intValue(), routes, entry.keyPosition()));
			}
		}
		result.sort((a, b) -> Integer.compare(a.priority(), b.priority()));
		return result;
	}

	private List<Route> readRoutes(YamlNode.Mapping tier, String tierName, String tierPath,
			Set<String> dependencyNames, Map<String, Route> routesByKey) {
		String path = tierPath + "." + ROUTES;
		YamlNode.Entry entry = tier.entries().get(ROUTES);
		if (entry == null) {
			this.problems.add(tier.position(), path, "missing 'routes': a tier needs at least one route");
			return List.of();
		}
		if (!(entry.value() instanceof YamlNode.Sequence sequence)) {
			this.problems.add(entry.value().position(), path,
					"'routes' must be a list of routes, but it is " + entry.value().describe());
			return List.of();
		}
		if (sequence.items().isEmpty()) {
			this.problems.add(sequence.position(), path, "'routes' is empty; a tier needs at least one route");
		}
		List<Route> routes = new ArrayList<>();
		for (int i = 0; i < sequence.items().size(); i++) {
			Route route = readRoute(sequence.items().get(i), tierName, path + "[" + i + "]", dependencyNames);
			if (route != null) {
				String key = route.method() + " " + CAPTURE_NAME.matcher(route.path()).replaceAll("{$1");
				Route previous = routesByKey.putIfAbsent(key, route);
				if (previous != null) {
					String same = previous.path().equals(route.path()) ? "is already declared"
							: "matches the same requests as " + previous + ", declared";
					this.problems.add(route.position(), path + "[" + i + "]", "route " + route + " " + same
							+ " in tier " + ProblemText.quote(previous.tier()) + " (line " + previous.position().line()
							+ "); a route may appear once");
				}
				routes.add(route);
			}
		}
		return routes;
	}

	private @Nullable Route readRoute(YamlNode node, String tierName, String path, Set<String> dependencyNames) {
		if (!(node instanceof YamlNode.Mapping route)) {
			this.problems.add(node.position(), path, "a route must be a mapping with 'path', 'method' and "
					+ "'fallback', but it is " + node.describe());
			return null;
		}
		checkKeys(route, path, ROUTE_KEYS);
		String pattern = readRoutePath(route, path);
		String method = readMethod(route, path);
		Fallback fallback = readFallback(route, path);
		List<String> requires = readRequires(route, path, dependencyNames);
		if (pattern == null || method == null || fallback == null) {
			return null;
		}
		return new Route(tierName, method, pattern, fallback, requires, route.position());
	}

	private @Nullable String readRoutePath(YamlNode.Mapping route, String path) {
		String keyPath = path + "." + PATH;
		YamlNode.Entry entry = route.entries().get(PATH);
		if (entry == null) {
			this.problems.add(route.position(), keyPath, "missing 'path': the Spring path pattern of the route, "
					+ "such as /api/products/{id}");
			return null;
		}
		String text = readString(entry.value(), keyPath);
		if (text == null) {
			return null;
		}
		Position position = entry.value().position();
		if (!text.startsWith("/")) {
			this.problems.add(position, keyPath, ProblemText.quote(text) + " must start with '/'");
			return null;
		}
		PathPattern parsed;
		try {
			parsed = PathPatternParser.defaultInstance.parse(text);
		}
		catch (PatternParseException ex) {
			this.problems.add(position, keyPath, ProblemText.quote(text) + " is not a valid path pattern: "
					+ ex.getMessage() + " (at character " + (ex.getPosition() + 1) + ")");
			return null;
		}
		String base = this.reservedBasePath;
		if (base != null && !base.isEmpty() && !base.equals("/")
				&& (text.equals(base) || text.startsWith(base + "/"))) {
			this.problems.add(position, keyPath, ProblemText.quote(text) + " is under the Actuator base path '" + base
					+ "'; the degradation controls must stay reachable, so no route may be shed there");
			return null;
		}
		return parsed.getPatternString();
	}

	private @Nullable String readMethod(YamlNode.Mapping route, String path) {
		String keyPath = path + "." + METHOD;
		YamlNode.Entry entry = route.entries().get(METHOD);
		if (entry == null) {
			this.problems.add(route.position(), keyPath, "missing 'method': one of " + sorted(METHODS));
			return null;
		}
		String text = readString(entry.value(), keyPath);
		if (text == null) {
			return null;
		}
		if (!METHODS.contains(text)) {
			String upper = text.toUpperCase(Locale.ROOT);
			String hint = METHODS.contains(upper) ? "; write it in upper case: '" + upper + "'"
					: Suggestions.hint(upper, METHODS);
			this.problems.add(entry.value().position(), keyPath,
					ProblemText.quote(text) + " is not an HTTP method this starter can degrade; use one of "
							+ sorted(METHODS) + hint);
			return null;
		}
		return text;
	}

	private @Nullable Fallback readFallback(YamlNode.Mapping route, String path) {
		String keyPath = path + "." + FALLBACK;
		YamlNode.Entry entry = route.entries().get(FALLBACK);
		YamlNode.Entry staticResponse = route.entries().get(STATIC_RESPONSE);
		if (entry == null) {
			this.problems.add(route.position(), keyPath, "missing 'fallback': 'drop' (204, nothing done) or "
					+ "'static' (200 with 'static_response' as the body)");
			return null;
		}
		String kind = readString(entry.value(), keyPath);
		if (kind == null) {
			return null;
		}
		if (!FALLBACKS.contains(kind)) {
			this.problems.add(entry.value().position(), keyPath, ProblemText.quote(kind)
					+ " is not a fallback; use one of " + sorted(FALLBACKS) + Suggestions.hint(kind, FALLBACKS));
			return null;
		}
		if (kind.equals(Fallback.Drop.KIND)) {
			if (staticResponse != null) {
				this.problems.add(staticResponse.keyPosition(), path + "." + STATIC_RESPONSE,
						"a 'drop' fallback answers 204 with no body, so 'static_response' would never be sent; "
								+ "remove it or use 'fallback: static'");
				return null;
			}
			return new Fallback.Drop();
		}
		if (staticResponse == null || (staticResponse.value() instanceof YamlNode.Scalar scalar && scalar.isNull())) {
			Position position = (staticResponse != null) ? staticResponse.value().position() : route.position();
			this.problems.add(position, path + "." + STATIC_RESPONSE, "a 'static' fallback needs "
					+ "'static_response': the JSON body to answer with, such as { \"items\": [], \"source\": \"degraded\" }");
			return null;
		}
		return new Fallback.Static(toJson(staticResponse.value()));
	}

	private List<String> readRequires(YamlNode.Mapping route, String path, Set<String> dependencyNames) {
		String keyPath = path + "." + REQUIRES;
		YamlNode.Entry entry = route.entries().get(REQUIRES);
		if (entry == null || (entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull())) {
			return List.of();
		}
		if (!(entry.value() instanceof YamlNode.Sequence sequence)) {
			this.problems.add(entry.value().position(), keyPath, "'requires' must be a list of dependency names, "
					+ "such as [recommendations-api], but it is " + entry.value().describe());
			return List.of();
		}
		List<String> requires = new ArrayList<>();
		for (int i = 0; i < sequence.items().size(); i++) {
			YamlNode item = sequence.items().get(i);
			String itemPath = keyPath + "[" + i + "]";
			String name = readString(item, itemPath);
			if (name == null) {
				continue;
			}
			if (!dependencyNames.contains(name)) {
				this.problems.add(item.position(), itemPath, ProblemText.quote(name) + " is not a declared dependency; "
						+ (dependencyNames.isEmpty() ? "declare it under 'dependencies'"
								: "declared: " + String.join(", ", dependencyNames)
										+ Suggestions.hint(name, dependencyNames)));
			}
			else if (requires.contains(name)) {
				this.problems.add(item.position(), itemPath, ProblemText.quote(name) + " is listed twice");
			}
			else {
				requires.add(name);
			}
		}
		return requires;
	}

	private void checkKeys(YamlNode.Mapping mapping, String path, Set<String> known) {
		for (YamlNode.Entry entry : mapping.entries().values()) {
			if (!known.contains(entry.key())) {
				this.problems.add(entry.keyPosition(), path.isEmpty() ? entry.key() : path + "." + entry.key(),
						"unknown key " + ProblemText.quote(entry.key()) + Suggestions.hint(entry.key(), known)
								+ " (known keys: " + sorted(known) + ")");
			}
		}
	}

	private void checkName(YamlNode.Entry entry, String path, String what) {
		if (!NAME.matcher(entry.key()).matches()) {
			this.problems.add(entry.keyPosition(), path, ProblemText.quote(entry.key()) + " is not a valid " + what
					+ " name: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64");
		}
	}

	private YamlNode.@Nullable Mapping optionalMapping(YamlNode.Mapping parent, String key, String path) {
		YamlNode.Entry entry = parent.entries().get(key);
		if (entry == null || (entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull())) {
			return null;
		}
		if (entry.value() instanceof YamlNode.Mapping mapping) {
			return mapping;
		}
		this.problems.add(entry.value().position(), path,
				"'" + key + "' must be a mapping, but it is " + entry.value().describe());
		return null;
	}

	private @Nullable String readString(YamlNode node, String path) {
		if (!(node instanceof YamlNode.Scalar scalar) || scalar.isNull()) {
			this.problems.add(node.position(), path, "expected a text value, but found " + node.describe());
			return null;
		}
		if (scalar.kind() != YamlNode.Kind.STRING) {
			this.problems.add(node.position(), path, "expected a text value, but found " + node.describe()
					+ "; put it in quotes if it is meant as text");
			return null;
		}
		String text = resolve(scalar, path);
		if (text != null && text.isBlank()) {
			this.problems.add(node.position(), path, "must not be blank");
			return null;
		}
		return text;
	}

	/**
	 * Resolve the placeholders of a text value.
	 * @return the resolved text, or {@code null} when it cannot be resolved, which is reported
	 * unless placeholders are not required, in which case the value is left unchecked
	 */
	private @Nullable String resolve(YamlNode.Scalar scalar, String path) {
		if (scalar.kind() != YamlNode.Kind.STRING || !scalar.text().contains("${")) {
			return scalar.text();
		}
		String syntaxError = placeholderSyntaxError(scalar.text());
		if (syntaxError != null) {
			this.problems.add(scalar.position(), path, ProblemText.quote(scalar.text()) + " " + syntaxError
					+ "; write placeholders as ${name} or ${name:default}");
			return null;
		}
		try {
			return this.placeholders.apply(scalar.text());
		}
		catch (IllegalArgumentException ex) {
			if (this.placeholdersRequired) {
				this.problems.add(scalar.position(), path,
						"cannot resolve a placeholder in " + ProblemText.quote(scalar.text()) + ": "
								+ ProblemText.line(String.valueOf(ex.getMessage()), ProblemText.MAX_QUOTED * 3));
			}
			return null;
		}
	}

	/**
	 * Check the placeholders of a text as Spring reads them: every unescaped <code>${</code> is
	 * closed and none is empty. Spring would take an unclosed one for plain text, so that a typo turned
	 * into a literal '${' in a URL or a path and failed later with a less helpful message.
	 * @return what is wrong, or {@code null} when the placeholders are well formed
	 */
	private static @Nullable String placeholderSyntaxError(String text) {
		int depth = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '\\' && text.startsWith("${", i + 1)) {
				i += 2;
			}
			else if (c == '$' && text.startsWith("{", i + 1)) {
				if (text.startsWith("}", i + 2)) {
					return "has a placeholder without a name";
				}
				depth++;
				i++;
			}
			else if (c == '}' && depth > 0) {
				depth--;
			}
		}
		return (depth > 0) ? "has a '${' without its closing '}'" : null;
	}

	/**
	 * Read an optional whole number.
	 * @return the value, {@code fallback} when the key is absent, or {@code null} when the value
	 * written is not usable (reported) or not known yet (an unresolved placeholder)
	 */
	private @Nullable Long readLong(YamlNode.Mapping mapping, String path, String key, long min, long max,
			long fallback) {
		if (!mapping.entries().containsKey(key)) {
			return fallback;
		}
		return readRequiredLong(mapping, path, key, min, max, "");
	}

	private @Nullable Long readRequiredLong(YamlNode.Mapping mapping, String path, String key, long min, long max,
			String meaning) {
		String keyPath = path + "." + key;
		YamlNode.Entry entry = mapping.entries().get(key);
		if (entry == null) {
			this.problems.add(mapping.position(), keyPath, "missing '" + key + "': " + meaning);
			return null;
		}
		BigDecimal number = readNumber(entry.value(), keyPath);
		if (number == null) {
			return null;
		}
		// Compared, never expanded: 1e999999999 is a dozen characters and a billion digits.
		if (number.signum() != 0 && number.stripTrailingZeros().scale() > 0) {
			this.problems.add(entry.value().position(), keyPath,
					"'" + key + "' must be a whole number, but it is " + ProblemText.number(number));
			return null;
		}
		if (number.compareTo(BigDecimal.valueOf(min)) < 0 || number.compareTo(BigDecimal.valueOf(max)) > 0) {
			this.problems.add(entry.value().position(), keyPath, "'" + key + "' must be between " + min + " and "
					+ max + ", but it is " + ProblemText.number(number));
			return null;
		}
		return number.longValueExact();
	}

	private @Nullable Double readFraction(YamlNode.Mapping mapping, String path, String key, boolean zeroAllowed,
			double fallback) {
		String keyPath = path + "." + key;
		YamlNode.Entry entry = mapping.entries().get(key);
		if (entry == null) {
			return fallback;
		}
		BigDecimal number = readNumber(entry.value(), keyPath);
		if (number == null) {
			return null;
		}
		boolean aboveMin = zeroAllowed ? number.signum() >= 0 : number.signum() > 0;
		boolean belowMax = zeroAllowed ? number.compareTo(BigDecimal.ONE) < 0 : number.compareTo(BigDecimal.ONE) <= 0;
		if (!aboveMin || !belowMax) {
			String range = zeroAllowed ? "at least 0 and below 1" : "above 0 and at most 1";
			this.problems.add(entry.value().position(), keyPath, "'" + key + "' is an error rate and must be "
					+ range + ", but it is " + ProblemText.number(number));
			return null;
		}
		return number.doubleValue();
	}

	private @Nullable BigDecimal readNumber(YamlNode node, String path) {
		if (node instanceof YamlNode.Scalar scalar) {
			if (scalar.kind() == YamlNode.Kind.INTEGER || scalar.kind() == YamlNode.Kind.DECIMAL) {
				return new BigDecimal(scalar.text());
			}
			if (scalar.kind() == YamlNode.Kind.STRING && scalar.text().contains("${")) {
				String resolved = resolve(scalar, path);
				if (resolved == null) {
					return null;
				}
				try {
					return new BigDecimal(resolved.trim());
				}
				catch (NumberFormatException ex) {
					this.problems.add(node.position(), path, "expected a number, but "
							+ ProblemText.quote(scalar.text()) + " resolved to " + ProblemText.quote(resolved));
					return null;
				}
			}
		}
		String hint = (node instanceof YamlNode.Scalar scalar && scalar.kind() == YamlNode.Kind.STRING
				&& NUMBER_LIKE.matcher(scalar.text()).matches())
						? "; write a plain decimal number without quotes, such as 2000 or 0.5" : "";
		this.problems.add(node.position(), path, "expected a number, but found " + node.describe() + hint);
		return null;
	}

	private static String toJson(YamlNode node) {
		StringWriter writer = new StringWriter();
		try (JsonGenerator generator = JSON.createGenerator(ObjectWriteContext.empty(), writer)) {
			writeJson(node, generator);
		}
		return writer.toString();
	}

	private static void writeJson(YamlNode node, JsonGenerator generator) {
		if (node instanceof YamlNode.Mapping mapping) {
			generator.writeStartObject();
			for (YamlNode.Entry entry : mapping.entries().values()) {
				generator.writeName(entry.key());
				writeJson(entry.value(), generator);
			}
			generator.writeEndObject();
		}
		else if (node instanceof YamlNode.Sequence sequence) {
			generator.writeStartArray();
			for (YamlNode item : sequence.items()) {
				writeJson(item, generator);
			}
			generator.writeEndArray();
		}
		else if (node instanceof YamlNode.Scalar scalar) {
			switch (scalar.kind()) {
				case NULL -> generator.writeNull();
				case BOOLEAN -> generator.writeBoolean(Boolean.parseBoolean(scalar.text()));
				case INTEGER -> generator.writeNumber(new BigInteger(scalar.text()));
				case DECIMAL -> generator.writeNumber(new BigDecimal(scalar.text()));
				case STRING -> generator.writeString(scalar.text());
			}
		}
	}

	private static String sorted(Set<String> values) {
		return String.join(", ", values.stream().sorted().toList());
	}

}

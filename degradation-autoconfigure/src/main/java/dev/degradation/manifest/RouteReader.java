package dev.degradation.manifest;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

import static dev.degradation.manifest.ManifestKeys.FALLBACK;
import static dev.degradation.manifest.ManifestKeys.METHOD;
import static dev.degradation.manifest.ManifestKeys.NAME;
import static dev.degradation.manifest.ManifestKeys.PATH;
import static dev.degradation.manifest.ManifestKeys.REQUIRES;

/**
 * Reads one route of a tier: its path pattern, its method, its fallback (through the
 * {@link FallbackKind kinds} it was given) and the names it requires.
 */
final class RouteReader {

	private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

	private final ValueReader values;

	private final FallbackKindTable kinds;

	/** The route's own keys and those its fallback kinds use. */
	private final Set<String> keys;

	private final @Nullable String reservedBasePath;

	/**
	 * Create a reader of routes.
	 * @param reservedBasePath the path under which no route may be, without a trailing '/', or
	 * {@code null}
	 */
	RouteReader(ValueReader values, @Nullable String reservedBasePath, FallbackKindTable kinds) {
		this.values = values;
		this.reservedBasePath = reservedBasePath;
		this.kinds = kinds;
		Set<String> keys = new LinkedHashSet<>(List.of(NAME, PATH, METHOD, FALLBACK, REQUIRES));
		keys.addAll(kinds.fallbackKeys());
		this.keys = Set.copyOf(keys);
	}

	DeclaredRoute read(YamlNode node, String tierName, String path) {
		if (!(node instanceof YamlNode.Mapping route)) {
			this.values.problems()
				.add(node.position(), path, "a route must be a mapping with 'path', 'method' and "
						+ "'fallback', but it is " + node.describe());
			return new DeclaredRoute(path, null, List.of(), Setting.unwritten(null));
		}
		this.values.checkKeys(route, path, this.keys);
		Setting<String> name = readName(route, path);
		String pattern = readPattern(route, path);
		String method = readMethod(route, path);
		FallbackKind<?> kind = readKind(route, path);
		Fallback fallback = (kind != null) ? readFallback(route, path, kind) : null;
		List<Requirement> requires = readRequires(route, path);
		String methodProblem = (kind != null && fallback != null && method != null) ? kind.methodProblem(method)
				: null;
		if (methodProblem != null) {
			this.values.problems()
				.add(route.entries().get(FALLBACK).value().position(), path + "." + FALLBACK, methodProblem);
			fallback = null;
		}
		if (pattern == null || method == null || fallback == null) {
			return new DeclaredRoute(path, null, requires, name);
		}
		return new DeclaredRoute(path, new Route(tierName, method, pattern, fallback,
				requires.stream().map(Requirement::name).distinct().toList(), route.position(), name.value()), requires,
				name);
	}

	private Setting<String> readName(YamlNode.Mapping route, String path) {
		Setting<String> name = this.values.text(route, path, NAME);
		if (name.value() != null && name.entry() != null
				&& !this.values.checkName(name.value(), name.entry().value().position(), name.path(), "route")) {
			return new Setting<>(name.path(), name.entry(), null);
		}
		return name;
	}

	private @Nullable String readPattern(YamlNode.Mapping route, String path) {
		String keyPath = path + "." + PATH;
		YamlNode.Entry entry = route.entries().get(PATH);
		if (entry == null) {
			this.values.problems()
				.add(route.position(), keyPath, "missing 'path': the Spring path pattern of the route, "
						+ "such as /api/products/{id}");
			return null;
		}
		String text = this.values.text(entry.value(), keyPath);
		if (text == null) {
			return null;
		}
		Position position = entry.value().position();
		if (!text.startsWith("/")) {
			this.values.problems().add(position, keyPath, ProblemText.quote(text) + " must start with '/'");
			return null;
		}
		PathPattern parsed;
		try {
			parsed = PathPatternParser.defaultInstance.parse(text);
		}
		catch (PatternParseException ex) {
			this.values.problems()
				.add(position, keyPath, ProblemText.quote(text) + " is not a valid path pattern: " + ex.getMessage()
						+ " (at character " + (ex.getPosition() + 1) + ")");
			return null;
		}
		String base = this.reservedBasePath;
		if (base != null && !base.isEmpty() && !base.equals("/")
				&& (text.equals(base) || text.startsWith(base + "/"))) {
			this.values.problems()
				.add(position, keyPath, ProblemText.quote(text) + " is under the Actuator base path '" + base
						+ "'; the degradation controls must stay reachable, so no route may be shed there");
			return null;
		}
		return parsed.getPatternString();
	}

	private @Nullable String readMethod(YamlNode.Mapping route, String path) {
		String keyPath = path + "." + METHOD;
		YamlNode.Entry entry = route.entries().get(METHOD);
		if (entry == null) {
			this.values.problems()
				.add(route.position(), keyPath, "missing 'method': one of " + ValueReader.sorted(METHODS));
			return null;
		}
		String text = this.values.text(entry.value(), keyPath);
		if (text == null) {
			return null;
		}
		// The seed format reads methods in any case, as HTTP clients and Spring's annotations do.
		String method = text.toUpperCase(Locale.ROOT);
		if (!METHODS.contains(method)) {
			this.values.problems()
				.add(entry.value().position(), keyPath, ProblemText.quote(text)
						+ " is not an HTTP method this starter can degrade; use one of " + ValueReader.sorted(METHODS)
						+ Suggestions.hint(method, METHODS));
			return null;
		}
		return method;
	}

	private @Nullable FallbackKind<?> readKind(YamlNode.Mapping route, String path) {
		String keyPath = path + "." + FALLBACK;
		YamlNode.Entry entry = route.entries().get(FALLBACK);
		if (entry == null) {
			this.values.problems()
				.add(route.position(), keyPath, "missing 'fallback': " + this.kinds.described());
			return null;
		}
		String name = this.values.text(entry.value(), keyPath);
		if (name == null) {
			return null;
		}
		FallbackKind<?> kind = this.kinds.of(name);
		if (kind == null) {
			Set<String> kinds = this.kinds.kinds();
			this.values.problems()
				.add(entry.value().position(), keyPath, ProblemText.quote(name) + " is not a fallback; use one of "
						+ ValueReader.sorted(kinds) + Suggestions.hint(name, kinds));
		}
		return kind;
	}

	private @Nullable Fallback readFallback(YamlNode.Mapping route, String path, FallbackKind<?> kind) {
		boolean usable = true;
		for (String key : this.kinds.fallbackKeys()) {
			usable &= checkKey(route, path, kind, key);
		}
		if (!usable) {
			return null;
		}
		Fallback fallback = kind.read(new FallbackKeys(route, path, this.values));
		if (fallback != null && !fallback.kind().equals(kind.name())) {
			throw new IllegalStateException("The fallback kind '" + kind.name() + "' built a fallback of kind '"
					+ fallback.kind() + "'");
		}
		return fallback;
	}

	/**
	 * Check that a key of the route is written if the kind needs it, and not if it has no use for it.
	 * @return whether the key is as the kind needs it
	 */
	private boolean checkKey(YamlNode.Mapping route, String path, FallbackKind<?> kind, String key) {
		String keyPath = path + "." + key;
		YamlNode.Entry entry = route.entries().get(key);
		FallbackKey.Need need = FallbackKindTable.need(kind, key);
		if (need == null && entry != null) {
			FallbackKind<?> user = this.kinds.usingKey(key);
			this.values.problems()
				.add(entry.keyPosition(), keyPath, "a '" + kind.name() + "' fallback " + kind.answer() + ", so '" + key
						+ "' would never be " + this.kinds.key(key).use() + "; remove it"
						+ ((user != null) ? " or use 'fallback: " + user.name() + "'" : ""));
			return false;
		}
		if (need == FallbackKey.Need.REQUIRED
				&& (entry == null || (entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull()))) {
			Position position = (entry != null) ? entry.value().position() : route.position();
			String meaning = kind.keys().stream().filter((declared) -> declared.name().equals(key)).findFirst()
				.orElseThrow().meaning();
			this.values.problems()
				.add(position, keyPath, "a '" + kind.name() + "' fallback needs '" + key + "': " + meaning);
			return false;
		}
		return true;
	}

	/**
	 * Read the names in {@code requires}; whether each names a declared dependency, once, is one
	 * of the {@link ManifestRules}.
	 */
	private List<Requirement> readRequires(YamlNode.Mapping route, String path) {
		String keyPath = path + "." + REQUIRES;
		YamlNode.Entry entry = route.entries().get(REQUIRES);
		if (entry == null || (entry.value() instanceof YamlNode.Scalar scalar && scalar.isNull())) {
			return List.of();
		}
		if (!(entry.value() instanceof YamlNode.Sequence sequence)) {
			this.values.problems()
				.add(entry.value().position(), keyPath, "'requires' must be a list of dependency names, "
						+ "such as [recommendations-api], but it is " + entry.value().describe());
			return List.of();
		}
		List<Requirement> requires = new ArrayList<>();
		for (int i = 0; i < sequence.items().size(); i++) {
			YamlNode item = sequence.items().get(i);
			String itemPath = keyPath + "[" + i + "]";
			String name = this.values.text(item, itemPath);
			if (name != null) {
				requires.add(new Requirement(name, item.position(), itemPath));
			}
		}
		return requires;
	}

	/**
	 * One route of a tier as read.
	 *
	 * @param path the YAML path of the route
	 * @param route the route, or {@code null} when it has a problem that leaves none
	 * @param requires the names it requires, each where it is written
	 * @param name its name, if it has a usable one
	 */
	record DeclaredRoute(String path, @Nullable Route route, List<Requirement> requires, Setting<String> name) {

	}

	/**
	 * One name in a route's {@code requires}.
	 *
	 * @param name the dependency name
	 * @param position where it is written
	 * @param path its YAML path
	 */
	record Requirement(String name, Position position, String path) {

	}

}

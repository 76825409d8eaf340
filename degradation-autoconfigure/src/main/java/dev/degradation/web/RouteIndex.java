package dev.degradation.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.PathContainer.Element;
import org.springframework.http.server.PathContainer.PathSegment;

/**
 * The routes of one HTTP method, indexed by the whole literal segments their patterns start with,
 * so that a lookup tests only the patterns that can match the path instead of every pattern of
 * the method.
 *
 * <p>A pattern can only match a path whose elements begin with the pattern's literal start (a
 * literal segment matches exactly one equal path segment, a separator one separator), so walking
 * the path down a trie of those starts visits every route that can match. The index only narrows:
 * every candidate is confirmed with {@code PathPattern.matches}, except a pattern without any
 * syntax, which is its own literal start and matches exactly the paths whose elements the walk has
 * just compared (this spares the lookup the matching context that {@code PathPattern} allocates).
 * Routes are ranked by one sort over all of the method's routes with
 * {@code PathPattern.SPECIFICITY_COMPARATOR}; the best-ranked match over the visited nodes is the
 * route that a scan in that order finds first. {@code docs/performance.md} has the benchmarks.
 */
final class RouteIndex {

	/** Characters that end the literal start of a pattern at the segment that holds them. */
	private static final String NOT_LITERAL = "{*?%;";

	/**
	 * The separator element of the paths Spring parses, one shared instance. The walk compares an
	 * element with it before it asks whether the element is a segment: on JDK 17 an interface type
	 * check that fails, or that alternates between two interfaces on one class, takes a slow path
	 * (JDK-8180450) that costs more than the whole lookup ({@code docs/performance.md}). Any
	 * other separator still takes the type check, so this is only about speed.
	 */
	private static final Object SEPARATOR = PathContainer.parsePath("/").elements().get(0);

	private final Node root;

	private RouteIndex(Node root) {
		this.root = root;
	}

	/**
	 * Index routes of one method.
	 * @param ranked the routes, most specific first: their rank is their position
	 * @return the index
	 */
	static RouteIndex of(ShedRoute[] ranked) {
		NodeBuilder root = new NodeBuilder();
		for (int rank = 0; rank < ranked.length; rank++) {
			String pattern = ranked[rank].pattern().getPatternString();
			NodeBuilder node = root;
			for (Element element : literalStart(pattern)) {
				node = node.child(element);
			}
			node.candidates.add(new Candidate(ranked[rank], rank, literalEnd(pattern) == pattern.length()));
		}
		return new RouteIndex(root.build());
	}

	/**
	 * The elements of a pattern up to its first segment that is not a plain literal (the whole
	 * pattern when there is none), as {@link PathContainer} parses a path, so that they compare
	 * element by element with a request's path.
	 */
	static List<Element> literalStart(String pattern) {
		return PathContainer.parsePath(pattern.substring(0, literalEnd(pattern))).elements();
	}

	private static int literalEnd(String pattern) {
		for (int i = 0; i < pattern.length(); i++) {
			if (NOT_LITERAL.indexOf(pattern.charAt(i)) >= 0) {
				return Math.max(pattern.lastIndexOf('/', i), 0);
			}
		}
		return pattern.length();
	}

	/**
	 * Find the best-ranked route whose pattern matches a path.
	 * @param path the path within the application
	 * @return the route, or {@code null}
	 */
	@Nullable ShedRoute find(PathContainer path) {
		Candidate found = find(this.root, path.elements(), 0, path);
		return (found != null) ? found.route : null;
	}

	/**
	 * Find the best match at a node and below it. The deepest node goes first: its patterns start
	 * with more literal segments, so they tend to rank better, and every pattern that ranks worse
	 * than a match already found is not tested at all.
	 */
	private static @Nullable Candidate find(Node node, List<? extends Element> elements, int next,
			PathContainer path) {
		Candidate deeper = null;
		if (next < elements.size()) {
			Node child = node.child(elements.get(next));
			if (child != null) {
				deeper = find(child, elements, next + 1, path);
			}
		}
		int best = (deeper != null) ? deeper.rank : Integer.MAX_VALUE;
		boolean wholePath = next == elements.size();
		// A node's candidates are in rank order: its first match is its best.
		for (Candidate candidate : node.candidates) {
			if (candidate.rank >= best) {
				break;
			}
			if (candidate.literal ? wholePath : candidate.route.pattern().matches(path)) {
				return candidate;
			}
		}
		return deeper;
	}

	/**
	 * A route at its node.
	 * @param route the route
	 * @param rank its position among the method's routes, most specific first
	 * @param literal whether its pattern has no syntax at all, and so ends at its node
	 */
	private record Candidate(ShedRoute route, int rank, boolean literal) {

	}

	private static final class Node {

		private static final Candidate[] NONE = {};

		final Candidate[] candidates;

		private final @Nullable Node separator;

		private final Map<String, Node> segments;

		Node(List<Candidate> candidates, @Nullable Node separator, Map<String, Node> segments) {
			this.candidates = candidates.toArray(NONE);
			this.separator = separator;
			this.segments = segments;
		}

		@Nullable Node child(Object element) {
			return (element != SEPARATOR && element instanceof PathSegment segment)
					? this.segments.get(segment.valueToMatch()) : this.separator;
		}

	}

	private static final class NodeBuilder {

		final List<Candidate> candidates = new ArrayList<>();

		@Nullable NodeBuilder separator;

		final Map<String, NodeBuilder> segments = new HashMap<>();

		NodeBuilder child(Element element) {
			if (element instanceof PathSegment segment) {
				return this.segments.computeIfAbsent(segment.valueToMatch(), (value) -> new NodeBuilder());
			}
			if (this.separator == null) {
				this.separator = new NodeBuilder();
			}
			return this.separator;
		}

		Node build() {
			Map<String, Node> built = new HashMap<>();
			this.segments.forEach((value, child) -> built.put(value, child.build()));
			return new Node(this.candidates, (this.separator != null) ? this.separator.build() : null,
					Map.copyOf(built));
		}

	}

}

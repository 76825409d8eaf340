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
 * so that a lookup tests only the patterns whose literal start the path has, instead of every
 * pattern of the method.
 *
 * <p>A pattern can only match a path whose elements begin with the pattern's literal start (a
 * literal segment matches exactly one equal path segment, a separator one separator), so walking
 * the path down a trie of those starts visits every route that can match. The index only narrows:
 * every candidate is still confirmed with {@code PathPattern.matches}. Routes are ranked by one
 * sort over all of the method's routes with {@code PathPattern.SPECIFICITY_COMPARATOR}; the match
 * with the best rank over the visited nodes is the route that a scan in that order would find
 * first. {@code docs/performance.md} shows why (the scan costs microseconds at 1,000 routes).
 */
final class RouteIndex {

	/** Characters that end the literal start of a pattern at the segment that holds them. */
	private static final String NOT_LITERAL = "{*?%;";

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
			NodeBuilder node = root;
			for (Element element : literalStart(ranked[rank].pattern().getPatternString())) {
				node = node.child(element);
			}
			node.routes.add(ranked[rank]);
			node.ranks.add(rank);
		}
		return new RouteIndex(root.build());
	}

	/**
	 * The elements of a pattern up to its first segment that is not a plain literal (the whole
	 * pattern when there is none), as {@link PathContainer} parses a path, so that they compare
	 * element by element with a request's path.
	 */
	static List<Element> literalStart(String pattern) {
		int end = pattern.length();
		for (int i = 0; i < pattern.length(); i++) {
			if (NOT_LITERAL.indexOf(pattern.charAt(i)) >= 0) {
				end = Math.max(pattern.lastIndexOf('/', i), 0);
				break;
			}
		}
		return PathContainer.parsePath(pattern.substring(0, end)).elements();
	}

	/**
	 * Find the best-ranked route whose pattern matches a path.
	 * @param path the path within the application
	 * @return the route, or {@code null}
	 */
	@Nullable ShedRoute find(PathContainer path) {
		List<Element> elements = path.elements();
		int count = elements.size();
		Node node = this.root;
		ShedRoute found = null;
		int best = Integer.MAX_VALUE;
		for (int i = 0;; i++) {
			ShedRoute[] routes = node.routes;
			int[] ranks = node.ranks;
			// A node's routes are in rank order: its first match is its best, and none after a
			// worse rank than the best so far can win.
			for (int r = 0; r < routes.length && ranks[r] < best; r++) {
				if (routes[r].pattern().matches(path)) {
					found = routes[r];
					best = ranks[r];
					break;
				}
			}
			if (i == count) {
				return found;
			}
			Element element = elements.get(i);
			node = (element instanceof PathSegment segment) ? node.segment(segment.valueToMatch()) : node.separator;
			if (node == null) {
				return found;
			}
		}
	}

	private static final class Node {

		private static final ShedRoute[] NO_ROUTES = {};

		final ShedRoute[] routes;

		final int[] ranks;

		final @Nullable Node separator;

		private final Map<String, Node> segments;

		Node(List<ShedRoute> routes, List<Integer> ranks, @Nullable Node separator, Map<String, Node> segments) {
			this.routes = routes.toArray(NO_ROUTES);
			this.ranks = ranks.stream().mapToInt(Integer::intValue).toArray();
			this.separator = separator;
			this.segments = segments;
		}

		@Nullable Node segment(String value) {
			return this.segments.get(value);
		}

	}

	private static final class NodeBuilder {

		final List<ShedRoute> routes = new ArrayList<>();

		final List<Integer> ranks = new ArrayList<>();

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
			return new Node(this.routes, this.ranks, (this.separator != null) ? this.separator.build() : null,
					Map.copyOf(built));
		}

	}

}

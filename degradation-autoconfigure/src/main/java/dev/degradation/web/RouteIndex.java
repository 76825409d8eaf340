package dev.degradation.web;

import java.util.ArrayList;
import java.util.Arrays;
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
 * what follows the literal start of a candidate is confirmed by its {@link Tail} when the pattern
 * is built only of the common shapes (literal segments, {@code {var}}, {@code *}, and a final
 * {@code **} or {@code {*var}}), and by {@code PathPattern.matches} otherwise. The tail follows
 * {@code PathPattern}'s rules element by element but allocates nothing, where
 * {@code PathPattern.matches} allocates a matching context on every call.
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
			node.candidates.add(new Candidate(ranked[rank], rank, Tail.of(pattern.substring(literalEnd(pattern)))));
		}
		return new RouteIndex(new Node(root, null, 0));
	}

	/**
	 * The elements of a pattern up to its first segment that is not a plain literal (the whole
	 * pattern when there is none), as {@link PathContainer} parses a path, so that they compare
	 * element by element with a request's path.
	 */
	static List<Element> literalStart(String pattern) {
		return PathContainer.parsePath(pattern.substring(0, literalEnd(pattern))).elements();
	}

	static int literalEnd(String pattern) {
		for (int i = 0; i < pattern.length(); i++) {
			if (NOT_LITERAL.indexOf(pattern.charAt(i)) >= 0) {
				return Math.max(pattern.lastIndexOf('/', i), 0);
			}
		}
		return pattern.length();
	}

	/**
	 * Find the best-ranked route whose pattern matches a path. The walk goes down the trie along
	 * the path as far as it leads, then back up, testing at each node the candidates that rank
	 * better than the best match so far. The deepest node goes first because its patterns start
	 * with more literal segments and so tend to rank better: a pattern that ranks worse than a
	 * match already found is not tested at all. A node's candidates are in rank order, so its
	 * first match is its best.
	 * @param path the path within the application
	 * @return the route, or {@code null}
	 */
	@Nullable ShedRoute find(PathContainer path) {
		// Elements are handled as Object on the hot path: a cast to Element before the test for
		// PathSegment would check one class against two interfaces in turn (JDK-8180450, above).
		List<?> elements = path.elements();
		int size = elements.size();
		Node node = this.root;
		while (node.depth < size) {
			Node child = node.child(elements.get(node.depth));
			if (child == null) {
				break;
			}
			node = child;
		}
		Candidate best = null;
		// Only nodes that hold patterns are visited on the way back up.
		for (node = (node.candidates.length > 0) ? node : node.up; node != null; node = node.up) {
			for (Candidate candidate : node.candidates) {
				if (best != null && candidate.rank >= best.rank) {
					break;
				}
				if (candidate.matches(elements, node.depth, path)) {
					best = candidate;
					break;
				}
			}
		}
		return (best != null) ? best.route : null;
	}

	/** The value a path segment is matched by, or {@code null} for a separator. */
	private static @Nullable String valueToMatch(Object element) {
		return (element != SEPARATOR && element instanceof PathSegment segment) ? segment.valueToMatch() : null;
	}

	private static boolean isSeparator(Object element) {
		return valueToMatch(element) == null;
	}

	/**
	 * A route at its node.
	 * @param route the route
	 * @param rank its position among the method's routes, most specific first
	 * @param tail what its pattern requires of the path after its literal start, or {@code null}
	 * when only {@code PathPattern.matches} can tell
	 */
	private record Candidate(ShedRoute route, int rank, @Nullable Tail tail) {

		/** Whether the path matches, given that its first elements are the literal start. */
		boolean matches(List<?> elements, int next, PathContainer path) {
			return (this.tail != null) ? this.tail.matches(elements, next) : this.route.pattern().matches(path);
		}

	}

	/**
	 * The part of a pattern after its literal start, compiled to steps over path elements, for
	 * the shapes most manifests use. Each step does what the {@code PathPattern} element of the
	 * same syntax does when it matches a whole path: a separator matches one separator; a literal
	 * one segment whose decoded value without parameters is equal; {@code {var}} (without a
	 * regular expression) one segment whose value is not empty; {@code *} one segment, not empty
	 * unless it is the last step; a final {@code **} or {@code {*var}}, together with the
	 * separator before it, the end of the path or everything from a separator on. Anything else
	 * (regular expressions, {@code ?}, partial wildcards, {@code **} before the end, encoded or
	 * parameterized pattern text) is left to {@code PathPattern.matches}.
	 */
	static final class Tail {

		private static final byte SEPARATOR_STEP = 0;

		private static final byte LITERAL_STEP = 1;

		private static final byte VARIABLE_STEP = 2;

		private static final byte WILDCARD_STEP = 3;

		private static final byte REST_STEP = 4;

		/** Characters that give a segment a meaning {@code Tail} does not model. */
		private static final String UNMODELLED = "{}*?%;:";

		private final byte[] steps;

		private final @Nullable String[] literals;

		/** The steps that are literal segments, tested first: they are the likeliest to fail. */
		private final int[] literalSteps;

		/** The fewest and the most path elements after the literal start that can match. */
		private final int minElements;

		private final int maxElements;

		private Tail(byte[] steps, @Nullable String[] literals) {
			this.steps = steps;
			this.literals = literals;
			int literalCount = 0;
			for (byte step : steps) {
				literalCount += (step == LITERAL_STEP) ? 1 : 0;
			}
			this.literalSteps = new int[literalCount];
			for (int step = 0, next = 0; step < steps.length; step++) {
				if (steps[step] == LITERAL_STEP) {
					this.literalSteps[next++] = step;
				}
			}
			int last = steps.length - 1;
			boolean rest = last >= 0 && steps[last] == REST_STEP;
			// The rest matches nothing at all or more than one element; a final * also the end of the path.
			boolean shorter = rest || (last >= 0 && steps[last] == WILDCARD_STEP);
			this.minElements = shorter ? last : steps.length;
			this.maxElements = rest ? Integer.MAX_VALUE : steps.length;
		}

		/**
		 * Compile the part of a pattern after its literal start.
		 * @param tail the pattern text from the end of its literal start (empty, or starting with
		 * the separator before the first segment with syntax)
		 * @return the tail, or {@code null} when the pattern needs {@code PathPattern.matches}
		 */
		static @Nullable Tail of(String tail) {
			if (!tail.isEmpty() && tail.charAt(0) != '/') {
				// A pattern without a leading separator: PathPattern treats its head specially.
				return null;
			}
			List<Element> elements = PathContainer.parsePath(tail).elements();
			byte[] steps = new byte[elements.size()];
			String[] literals = new String[elements.size()];
			int count = 0;
			for (int i = 0; i < elements.size(); i++) {
				Element element = elements.get(i);
				if (!(element instanceof PathSegment)) {
					steps[count++] = SEPARATOR_STEP;
					continue;
				}
				String text = element.value();
				if (text.equals("**") || isCaptureOfTheRest(text)) {
					// PathPattern folds the separator before it into the element, and only allows it last.
					if (i != elements.size() - 1 || count == 0 || steps[count - 1] != SEPARATOR_STEP) {
						return null;
					}
					steps[count - 1] = REST_STEP;
				}
				else if (text.equals("*")) {
					steps[count++] = WILDCARD_STEP;
				}
				else if (isPlainVariable(text)) {
					steps[count++] = VARIABLE_STEP;
				}
				else if (hasNone(text, UNMODELLED)) {
					literals[count] = ((PathSegment) element).valueToMatch();
					steps[count++] = LITERAL_STEP;
				}
				else {
					return null;
				}
			}
			return new Tail(Arrays.copyOf(steps, count), Arrays.copyOf(literals, count));
		}

		private static boolean isCaptureOfTheRest(String text) {
			return text.length() > 3 && text.startsWith("{*") && text.endsWith("}")
					&& hasNone(text.substring(2, text.length() - 1), UNMODELLED);
		}

		private static boolean isPlainVariable(String text) {
			return text.length() > 2 && text.charAt(0) == '{' && text.endsWith("}")
					&& hasNone(text.substring(1, text.length() - 1), UNMODELLED);
		}

		private static boolean hasNone(String text, String characters) {
			for (int i = 0; i < text.length(); i++) {
				if (characters.indexOf(text.charAt(i)) >= 0) {
					return false;
				}
			}
			return true;
		}

		/**
		 * Tell whether the elements from an index on are what this tail requires, to the end. The
		 * number of elements and the literal segments are tested first, because they tell most
		 * paths that do not match from those that do at the least cost.
		 * @param elements the path's elements
		 * @param from the index of the first element after the literal start
		 * @return whether they match
		 */
		boolean matches(List<?> elements, int from) {
			int size = elements.size();
			int remaining = size - from;
			if (remaining < this.minElements || remaining > this.maxElements) {
				return false;
			}
			// Every literal step comes before the last step or is the last step of a tail
			// without a rest or a final *, so the length test above keeps these indexes in range.
			for (int step : this.literalSteps) {
				String value = valueToMatch(elements.get(from + step));
				if (value == null || !value.equals(this.literals[step])) {
					return false;
				}
			}
			int index = from;
			byte[] steps = this.steps;
			int last = steps.length - 1;
			for (int step = 0; step <= last; step++) {
				if (steps[step] == REST_STEP) {
					// The rest: nothing more, or a separator and anything after it.
					return index == size || isSeparator(elements.get(index));
				}
				if (index >= size) {
					// A final * also matches where the path ends: /a/* matches /a/.
					return steps[step] == WILDCARD_STEP && step == last;
				}
				if (steps[step] != LITERAL_STEP && !matches(step, elements.get(index), step == last)) {
					return false;
				}
				index++;
			}
			return index == size;
		}

		/**
		 * Whether one step, other than the rest and the literal segments (tested before the
		 * walk), matches one element of the path.
		 */
		private boolean matches(int step, Object element, boolean last) {
			if (this.steps[step] == SEPARATOR_STEP) {
				return isSeparator(element);
			}
			String value = valueToMatch(element);
			if (value == null) {
				return false;
			}
			// {var} never matches an empty segment, * only when it is the last step.
			return !value.isEmpty() || (this.steps[step] == WILDCARD_STEP && last);
		}

	}

	/**
	 * A node of the trie. Its segment children sit in an open-addressing table that keeps each
	 * key's hash beside it, so that a lookup compares strings only when their hashes are equal
	 * ({@code Map.copyOf}'s table compares every key it probes, and most of a lookup's time went
	 * there).
	 */
	private static final class Node {

		private static final Candidate[] NONE = {};

		final Candidate[] candidates;

		private final @Nullable Node separator;

		private final @Nullable String[] keys;

		private final int[] hashes;

		private final @Nullable Node[] children;

		private final int mask;

		/**
		 * The nearest node above this one that holds patterns, {@code null} when there is none:
		 * most nodes hold none, and the walk back up skips them.
		 */
		final @Nullable Node up;

		/** The number of path elements the literal start of this node's patterns spans. */
		final int depth;

		Node(NodeBuilder builder, @Nullable Node parent, int depth) {
			this.candidates = builder.candidates.toArray(NONE);
			this.up = (parent == null) ? null : (parent.candidates.length > 0) ? parent : parent.up;
			this.depth = depth;
			this.separator = (builder.separator != null) ? new Node(builder.separator, this, depth + 1) : null;
			// At most half full, so that a probe ends at an empty slot soon; one empty slot for a leaf.
			int capacity = builder.segments.isEmpty() ? 1 : Integer.highestOneBit(builder.segments.size() * 2) * 2;
			this.keys = new String[capacity];
			this.hashes = new int[capacity];
			this.children = new Node[capacity];
			this.mask = capacity - 1;
			builder.segments.forEach((key, child) -> {
				int slot = slot(key.hashCode());
				while (this.keys[slot] != null) {
					slot = (slot + 1) & this.mask;
				}
				this.keys[slot] = key;
				this.hashes[slot] = key.hashCode();
				this.children[slot] = new Node(child, this, depth + 1);
			});
		}

		@Nullable Node child(Object element) {
			String value = valueToMatch(element);
			return (value != null) ? segment(value) : this.separator;
		}

		private @Nullable Node segment(String value) {
			int hash = value.hashCode();
			for (int slot = slot(hash);; slot = (slot + 1) & this.mask) {
				String key = this.keys[slot];
				if (key == null) {
					return null;
				}
				if (this.hashes[slot] == hash && key.equals(value)) {
					return this.children[slot];
				}
			}
		}

		private int slot(int hash) {
			return (hash ^ (hash >>> 16)) & this.mask;
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

	}

}

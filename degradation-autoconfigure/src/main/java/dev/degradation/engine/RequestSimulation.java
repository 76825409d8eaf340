package dev.degradation.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Route;
import dev.degradation.manifest.ShedScope;
import dev.degradation.manifest.Tier;
import dev.degradation.overload.HeaderNumber;

/**
 * A simulation that one request asks for itself ({@code X-Degradation-Simulate: level=2} or
 * {@code failed=a,b}, with the shared token in {@code X-Degradation-Simulate-Token}): its route
 * answers as the simulation says, the guarded calls made for it to a named dependency fail at once
 * without being made, and the calls carry both headers on, so that the services downstream degrade
 * the same request the same way. Nothing else moves: not the level, the limit, a breaker, a
 * dependency's window or a stale copy, so a shared environment can prove its degraded paths while
 * everyone else is served live.
 *
 * <p>The request's simulation is held for the thread that serves it, as {@code RequestPriority}
 * holds its priority (a reactive adapter writes it into the Reactor context under {@link #KEY}),
 * so that the client package's guards find it.
 *
 * @param level the simulated level ({@code 0} when the request names failed dependencies)
 * @param failed the dependencies the request simulates as failed, by their manifest names (names
 * another service declares are kept, to be passed on)
 * @param header the value of the simulation header as received, to pass on
 * @param token the token as received (it matched the configured one), to pass on
 */
public record RequestSimulation(int level, Set<String> failed, String header, String token) {

	/** The header that asks for a request's own simulation. */
	public static final String HEADER = "X-Degradation-Simulate";

	/** The header that carries the shared token. */
	public static final String TOKEN_HEADER = "X-Degradation-Simulate-Token";

	/** The shed cause of a route shed by a request's own simulation, as in the reason header. */
	public static final String CAUSE = "simulation:request";

	/**
	 * The key of the simulation in a Reactor context or a context-propagation snapshot: the key of
	 * its {@code ThreadLocalAccessor}.
	 */
	public static final String KEY = RequestSimulation.class.getName();

	/** The longest simulation header read: far more than any list of a service's dependencies. */
	static final int MAX_HEADER_LENGTH = 2048;

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

	private static final ThreadLocal<@Nullable RequestSimulation> current = new ThreadLocal<>();

	public RequestSimulation {
		failed = Set.copyOf(failed);
	}

	/**
	 * Return whether the simulation sheds a route of a manifest: by its level, as the level's
	 * simulation would, or because the route requires a dependency named failed (with
	 * {@code failed_dependency_sheds: tiers}, every tier up to the highest that holds such a route,
	 * as the dependency signal would).
	 * @param manifest the manifest the route is of
	 * @param route the route
	 * @param priority the priority of the route's tier
	 * @return whether the route answers its fallback for this request
	 */
	public boolean sheds(DegradationManifest manifest, Route route, int priority) {
		if (priority <= this.level) {
			return true;
		}
		if (this.failed.isEmpty()) {
			return false;
		}
		if (manifest.defaults().failedDependencySheds() != ShedScope.TIERS) {
			return requiresFailed(route);
		}
		int level = 0;
		for (Tier tier : manifest.tiers()) {
			for (Route other : tier.routes()) {
				if (requiresFailed(other)) {
					level = Math.max(level, tier.priority());
				}
			}
		}
		return priority <= level;
	}

	/**
	 * Return whether a guarded call to a dependency fails at once for this request.
	 * @param dependency the dependency's manifest name
	 * @return whether the dependency is simulated as failed
	 */
	public boolean fails(String dependency) {
		return this.failed.contains(dependency);
	}

	private boolean requiresFailed(Route route) {
		for (String required : route.requires()) {
			if (this.failed.contains(required)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Read a request's simulation headers against the configured token.
	 * @param token the configured token's digest ({@link #digest})
	 * @param maxLevel the highest level there is; a higher one is read as it
	 * @param header the simulation header, or {@code null}
	 * @param sentToken the token header, or {@code null}
	 * @return the simulation, or {@code null} when the request asks for none, the token is wrong,
	 * or the header is not one of the two forms
	 */
	public static @Nullable RequestSimulation read(byte[] token, int maxLevel, @Nullable String header,
			@Nullable String sentToken) {
		if (header == null || sentToken == null || header.length() > MAX_HEADER_LENGTH
				|| sentToken.length() > MAX_HEADER_LENGTH || !MessageDigest.isEqual(token, digest(sentToken))) {
			return null;
		}
		String value = header.strip();
		if (value.startsWith("level=")) {
			String number = value.substring(6);
			return HeaderNumber.readable(number)
					? new RequestSimulation((int) HeaderNumber.clamped(number, 0, maxLevel), Set.of(), header, sentToken)
					: null;
		}
		if (value.startsWith("failed=")) {
			Set<String> failed = new LinkedHashSet<>();
			for (String name : value.substring(7).split(",", -1)) {
				String trimmed = name.strip();
				if (!NAME.matcher(trimmed).matches()) {
					return null;
				}
				failed.add(trimmed);
			}
			return new RequestSimulation(0, failed, header, sentToken);
		}
		return null;
	}

	/**
	 * Return the digest a token is compared by: both sides are hashed first, so that the
	 * comparison takes the same time whatever the length or the content of what a caller sent.
	 * @param token the token
	 * @return its SHA-256 digest
	 */
	public static byte[] digest(String token) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

	/**
	 * Return the simulation of the current thread's request.
	 * @return the simulation, or {@code null} when the thread serves no simulated request
	 */
	public static @Nullable RequestSimulation current() {
		return current.get();
	}

	/**
	 * Set or clear the simulation of the current thread without restoring it later: for
	 * context-propagation's accessor, which restores what it replaced itself.
	 * @param simulation the simulation, or {@code null} for none
	 */
	public static void set(@Nullable RequestSimulation simulation) {
		if (simulation != null) {
			current.set(simulation);
		}
		else {
			current.remove();
		}
	}

	/**
	 * Hold a simulation for the current thread until the returned handle is closed.
	 * @param simulation the simulation
	 * @return the handle that restores the previous one; close it on the same thread
	 */
	public static Held hold(RequestSimulation simulation) {
		RequestSimulation previous = current.get();
		current.set(simulation);
		return () -> set(previous);
	}

	/** The token is a secret: it is never written where the simulation is printed. */
	@Override
	public String toString() {
		return "RequestSimulation[" + this.header.strip() + "]";
	}

	/**
	 * A simulation held for the current thread; closing it restores the one before.
	 */
	@FunctionalInterface
	public interface Held extends AutoCloseable {

		@Override
		void close();

	}

}

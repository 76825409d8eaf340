package dev.degradation.client;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.util.ConcurrentReferenceHashMap;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Puts the guard on the blocking clients the application builds itself, as Spring Cloud
 * LoadBalancer puts its interceptor on {@code @LoadBalanced} ones: a {@code RestClient.Builder},
 * a {@code RestClient} or a {@code RestTemplate} that is a bean of the application (load-balanced
 * or not, built from Boot's builder or not), and the {@code RestTemplate}s Boot's
 * {@code RestTemplateBuilder} builds. A client that has the guard already (Boot's builder, with
 * the starter's customizer) is not guarded twice. The guard comes first among the client's
 * interceptors, so that it sees the URL the application called ({@code http://SERVICE-ID/...}),
 * before a load balancer's interceptor, added after it, rewrites it to an instance.
 *
 * <p>The guard's calls cost no thread where the client's request factory can bound each request
 * itself: factories built by Boot's builder (with the starter's hooks) as they are, and Spring's
 * JDK and {@code HttpURLConnection} factories that the application built itself through a
 * {@link HandBuiltAttemptTimeout}, set in their place as the client is built. Any other factory's
 * guarded calls run on the guards' bounded executor, a thread each; startup says so once per
 * client, naming the dependencies it calls and why ({@link #unboundedClients()}, shown by the
 * endpoint). A {@code RestClient} bean is a client already built: it gets the guard (a copy of it,
 * by {@code mutate()}, replaces the bean), but its request factory can no longer be reached, so
 * its calls learn from their first attempt whether the client bounds them.
 */
public final class ClientGuarding {

	private static final Log logger = LogFactory.getLog(ClientGuarding.class);

	private final DependencyGuards guards;

	private final Function<Consumer<String>, ? extends ClientHttpRequestInterceptor> interceptors;

	/** The factories Boot's builder made, with the starter's per-request hooks. */
	private final Set<ClientHttpRequestFactory> hooked = Collections
		.newSetFromMap(new ConcurrentReferenceHashMap<>(16, ConcurrentReferenceHashMap.ReferenceType.WEAK));

	private final Map<String, UnboundedClient> unbounded = Collections.synchronizedMap(new LinkedHashMap<>());

	/**
	 * Create the guarding of the application's clients.
	 * @param guards the guards whose dependencies the clients call
	 * @param interceptors makes the guard of one client (each client learns on its own whether it
	 * bounds its calls), given what to tell when the client turns out not to
	 * ({@link GuardingInterceptor#GuardingInterceptor(DependencyGuards, String, java.time.Clock, String, Consumer)})
	 */
	public ClientGuarding(DependencyGuards guards,
			Function<Consumer<String>, ? extends GuardingInterceptor> interceptors) {
		this.guards = guards;
		this.interceptors = interceptors;
	}

	/**
	 * Record a request factory built by Boot's builder, which has the starter's per-request hook
	 * for its HTTP client: a client the application builds on it needs no thread per call.
	 * @param <F> the factory's type
	 * @param factory the factory
	 * @return the factory
	 */
	public <F extends ClientHttpRequestFactory> F hooked(F factory) {
		this.hooked.add(factory);
		return factory;
	}

	/**
	 * Put the guard on a builder, unless it has it, and bound the request factory it is given
	 * later.
	 * @param builder the builder
	 * @param name the bean's name, to say which client a warning is about
	 * @return the builder to use in its place
	 */
	public RestClient.Builder guard(RestClient.Builder builder, String name) {
		if (Proxy.isProxyClass(builder.getClass()) && Proxy.getInvocationHandler(builder) instanceof BoundingBuilder) {
			return builder;
		}
		String client = "the RestClient built from bean '" + name + "'";
		builder.requestInterceptors((interceptors) -> addGuard(interceptors, client));
		return new BoundingBuilder(builder, client, null, null).proxy();
	}

	/**
	 * Put the guard on a built client, unless it has it.
	 * @param client the client
	 * @param name the bean's name
	 * @return the client, or a copy of it with the guard
	 */
	public RestClient guard(RestClient client, String name) {
		RestClient.Builder copy = client.mutate();
		boolean[] guarded = new boolean[1];
		copy.requestInterceptors((interceptors) -> guarded[0] = isGuarded(interceptors));
		if (guarded[0]) {
			return client;
		}
		logger.debug("RestClient bean '" + name + "' gets the guard of the calls to the manifest's dependencies");
		String described = "RestClient bean '" + name + "'";
		return copy.requestInterceptors((interceptors) -> addGuard(interceptors, described)).build();
	}

	/**
	 * Put the guard on a {@code RestTemplate}, unless it has it, and bound its request factory.
	 * @param template the client, changed in place
	 * @param name which client it is, for a warning
	 * @return the client
	 */
	public RestTemplate guard(RestTemplate template, String name) {
		List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>(template.getInterceptors());
		if (isGuarded(interceptors)) {
			return template;
		}
		// Without interceptors the template answers its own factory, not the intercepting one.
		template.setInterceptors(List.of());
		ClientHttpRequestFactory factory = template.getRequestFactory();
		template.setRequestFactory(bound(factory, "RestTemplate " + name, null));
		if (!isGuarded(interceptors)) {
			interceptors.add(0, this.interceptors.apply((dependency) -> {
			}));
		}
		template.setInterceptors(interceptors);
		return template;
	}

	/**
	 * Return the clients whose guarded calls cannot be bounded on their caller's thread.
	 * @return each such client, once, in the order they were found
	 */
	public List<UnboundedClient> unboundedClients() {
		synchronized (this.unbounded) {
			return List.copyOf(this.unbounded.values());
		}
	}

	/**
	 * Put the guard first among a client's interceptors, unless it has it: one whose request
	 * factory was not seen, so its first call that takes a thread is said once.
	 */
	private void addGuard(List<ClientHttpRequestInterceptor> interceptors, String client) {
		if (!isGuarded(interceptors)) {
			interceptors.add(0, this.interceptors.apply((dependency) -> unboundedAtFirstCall(client, dependency)));
		}
	}

	private void unboundedAtFirstCall(String client, String dependency) {
		UnboundedClient unbounded = new UnboundedClient(client, List.of(dependency),
				"its request factory (not seen when the client got the guard) enforces no per-request time limit "
						+ "the starter can set; build the client on a builder bean given the factory with "
						+ "requestFactory(...), or on Boot's ClientHttpRequestFactoryBuilder bean");
		synchronized (this.unbounded) {
			if (this.unbounded.values().stream().anyMatch((known) -> known.client().equals(client))) {
				// Said at startup already, or for another of its dependencies.
				return;
			}
			this.unbounded.put(client, unbounded);
		}
		logger.warn("Guarded calls to dependency '" + dependency + "' through " + client + " run on the guards' "
				+ "executor, a thread each (seen at its first call): " + unbounded.reason());
	}

	private static boolean isGuarded(List<ClientHttpRequestInterceptor> interceptors) {
		return interceptors.stream().anyMatch(GuardingInterceptor.class::isInstance);
	}

	/**
	 * Return a factory that bounds each guarded request of the given one on its caller's thread,
	 * the factory itself when it does, or when it cannot be (then said once, with the dependencies
	 * the client calls).
	 */
	ClientHttpRequestFactory bound(ClientHttpRequestFactory factory, String client, @Nullable String baseUrl) {
		ClientHttpRequestFactory bounding = bounding(factory);
		if (bounding != null) {
			return bounding;
		}
		warn(client, baseUrl, factory);
		return factory;
	}

	private @Nullable ClientHttpRequestFactory bounding(ClientHttpRequestFactory factory) {
		if (factory instanceof JdkAttemptTimeout || factory instanceof HandBuiltAttemptTimeout
				|| this.hooked.contains(factory)) {
			return factory;
		}
		return HandBuiltAttemptTimeout.of(factory);
	}

	private void warn(String client, @Nullable String baseUrl, ClientHttpRequestFactory factory) {
		List<String> dependencies = dependencies(baseUrl);
		if (dependencies.isEmpty()) {
			// It calls none of the dependencies the guards know: none of its calls is guarded.
			return;
		}
		String type = factory.getClass().getName();
		UnboundedClient unbounded = new UnboundedClient(client, dependencies, reason(factory));
		if (this.unbounded.putIfAbsent(client + " on " + type, unbounded) == null) {
			logger.warn("Guarded calls to " + ((dependencies.size() == 1) ? "dependency '" + dependencies.get(0) + "'"
					: "dependencies " + dependencies) + " through " + client + " run on the guards' executor, "
					+ "a thread each: " + unbounded.reason());
		}
	}

	/** The dependencies a client with a base URL calls, or all those called by URL without one. */
	private List<String> dependencies(@Nullable String baseUrl) {
		if (baseUrl != null) {
			try {
				DependencyGuard guard = this.guards.forUrl(URI.create(baseUrl));
				return (guard != null) ? List.of(guard.dependency().name()) : List.of();
			}
			catch (IllegalArgumentException ex) {
				// A URI template: any dependency may be called.
			}
		}
		return this.guards.guards()
			.stream()
			.filter((guard) -> guard.dependency().baseUrl() != null)
			.map((guard) -> guard.dependency().name())
			.toList();
	}

	private static String reason(ClientHttpRequestFactory factory) {
		String type = factory.getClass().getName();
		String simpleName = factory.getClass().getSimpleName();
		String boot = "; build the request factory with Boot's ClientHttpRequestFactoryBuilder bean "
				+ "(spring.http.clients.*), which the starter hooks";
		return switch (type) {
			case "org.springframework.http.client.HttpComponentsClientHttpRequestFactory" -> simpleName
					+ " over an Apache HttpClient the application built, which the starter cannot give its "
					+ "per-request time limit (HttpComponentsAttemptTimeout)" + boot;
			case "org.springframework.http.client.ReactorClientHttpRequestFactory" -> simpleName
					+ " over a Reactor Netty HttpClient fixed when the factory was made, which the starter cannot "
					+ "give its per-request time limit (ReactorAttemptTimeout)" + boot;
			case "org.springframework.http.client.JettyClientHttpRequestFactory" -> simpleName
					+ ": the starter has no per-request time limit for Jetty's client; use the JDK's HttpClient, "
					+ "Apache HttpClient or Reactor Netty";
			default -> "its request factory (" + type + ") is one whose requests the starter cannot give a time "
					+ "limit of their own" + boot + ", or use Spring's JdkClientHttpRequestFactory or "
					+ "SimpleClientHttpRequestFactory as they are";
		};
	}

	/**
	 * A {@code RestClient.Builder} of the application that bounds the request factory it is
	 * given: the application's code calls the builder it holds, so the builder must be the one
	 * that sees the factory. A JDK proxy of the builder's interface, so that it serves every
	 * method of any Spring version; the builder's own methods that return it return the proxy.
	 */
	private final class BoundingBuilder implements InvocationHandler {

		private final RestClient.Builder builder;

		private final String client;

		private @Nullable String baseUrl;

		private @Nullable ClientHttpRequestFactory factory;

		private final RestClient.Builder proxy;

		BoundingBuilder(RestClient.Builder builder, String client, @Nullable String baseUrl,
				@Nullable ClientHttpRequestFactory factory) {
			this.builder = builder;
			this.client = client;
			this.baseUrl = baseUrl;
			this.factory = factory;
			this.proxy = (RestClient.Builder) Proxy.newProxyInstance(RestClient.Builder.class.getClassLoader(),
					new Class<?>[] { RestClient.Builder.class }, this);
		}

		RestClient.Builder proxy() {
			return this.proxy;
		}

		@Override
		@SuppressWarnings("unchecked")
		public @Nullable Object invoke(Object proxy, Method method, @Nullable Object @Nullable [] args)
				throws Throwable {
			Object[] arguments = (args != null) ? args : new Object[0];
			switch (method.getName()) {
				case "equals":
					return proxy == arguments[0];
				case "hashCode":
					return System.identityHashCode(proxy);
				case "requestFactory":
					if (arguments.length == 1 && arguments[0] instanceof ClientHttpRequestFactory requested) {
						this.factory = requested;
						ClientHttpRequestFactory bounding = bounding(requested);
						arguments[0] = (bounding != null) ? bounding : requested;
					}
					break;
				case "baseUrl":
					this.baseUrl = (arguments.length == 1 && arguments[0] != null) ? arguments[0].toString() : null;
					break;
				case "apply":
					// The configurer must set the factory through this builder, where it is seen.
					((Consumer<RestClient.Builder>) arguments[0]).accept(this.proxy);
					return this.proxy;
				case "clone":
					return new BoundingBuilder(this.builder.clone(), this.client, this.baseUrl, this.factory).proxy();
				case "build":
					ClientHttpRequestFactory requested = this.factory;
					if (requested != null && bounding(requested) == null) {
						warn(this.client, this.baseUrl, requested);
					}
					break;
				default:
					break;
			}
			try {
				Object result = method.invoke(this.builder, arguments);
				return (result == this.builder) ? this.proxy : result;
			}
			catch (InvocationTargetException ex) {
				throw ex.getTargetException();
			}
		}

	}

}

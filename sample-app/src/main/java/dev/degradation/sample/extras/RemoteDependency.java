package dev.degradation.sample.extras;

import java.net.URI;
import java.util.Map;

import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * One dependency of the shop, called over HTTP below its own base URL. A failed answer becomes a
 * {@link DependencyUnavailableException} that names the dependency. A call the starter's guard
 * refused (open breaker, time limit) is left as the guard's own exception: the starter answers it
 * with the route's fallback from the manifest, as it answers a shed route.
 */
public final class RemoteDependency {

	private final String name;

	private final URI url;

	private final RestClient client;

	RemoteDependency(String name, URI url, RestClient client) {
		this.name = name;
		this.url = url;
		this.client = client;
	}

	/**
	 * Return the name of this dependency, as declared in the degradation manifest.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * GET a JSON resource of this dependency.
	 * @param <T> the type of the answer
	 * @param path the path below the dependency's base URL, such as {@code /recommendations}
	 * @param query the query parameters, encoded by this method
	 * @param type the type of the answer
	 * @return the answer
	 * @throws DependencyUnavailableException if the call fails or the answer has no body
	 */
	public <T> T get(String path, Map<String, String> query, Class<T> type) {
		UriComponentsBuilder uri = UriComponentsBuilder.fromUri(this.url).path(path);
		// Values as URI variables, so that they are fully encoded ('&', '+' and '=' included).
		query.keySet().forEach((name) -> uri.queryParam(name, "{" + name + "}"));
		try {
			T body = this.client.get().uri(uri.encode().buildAndExpand(query).toUri()).retrieve().body(type);
			if (body == null) {
				throw new RestClientException("empty answer to GET " + path);
			}
			return body;
		}
		catch (RestClientException ex) {
			throw new DependencyUnavailableException(this.name, ex);
		}
	}

	/**
	 * POST a JSON body to this dependency, ignoring its answer.
	 * @param path the path below the dependency's base URL, such as {@code /events}
	 * @param body the body, written as JSON
	 * @throws DependencyUnavailableException if the call fails
	 */
	public void post(String path, Object body) {
		try {
			this.client.post()
				.uri(UriComponentsBuilder.fromUri(this.url).path(path).build().toUri())
				.body(body)
				.retrieve()
				.toBodilessEntity();
		}
		catch (RestClientException ex) {
			throw new DependencyUnavailableException(this.name, ex);
		}
	}

}

package dev.degradation.sample.extras;

import java.util.Map;

import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * One dependency of the shop, called over HTTP under {@code <base url>/<name>/}. Every failure of
 * a call becomes a {@link DependencyUnavailableException} that names the dependency.
 */
public final class RemoteDependency {

	private final String name;

	private final RestClient client;

	RemoteDependency(String name, RestClient client) {
		this.name = name;
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
	 * @param path the path below the dependency's own, such as {@code /recommendations}
	 * @param query the query parameters, encoded by this method
	 * @param type the type of the answer
	 * @return the answer
	 * @throws DependencyUnavailableException if the call fails or the answer has no body
	 */
	public <T> T get(String path, Map<String, String> query, Class<T> type) {
		try {
			T body = this.client.get().uri((builder) -> {
				builder.path("/" + this.name + path);
				query.forEach(builder::queryParam);
				return builder.build();
			}).retrieve().body(type);
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
	 * @param path the path below the dependency's own, such as {@code /events}
	 * @param body the body, written as JSON
	 * @throws DependencyUnavailableException if the call fails
	 */
	public void post(String path, Object body) {
		try {
			this.client.post().uri("/" + this.name + path).body(body).retrieve().toBodilessEntity();
		}
		catch (RestClientException ex) {
			throw new DependencyUnavailableException(this.name, ex);
		}
	}

}

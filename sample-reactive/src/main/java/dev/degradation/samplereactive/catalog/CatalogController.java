package dev.degradation.samplereactive.catalog;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.ResponseStatusException;

/**
 * The catalog's API. Products are its core: held in memory, never degraded. A product's reviews
 * and the recommendations are optional features, each fetched from a dependency; the manifest
 * declares their routes with a fallback, so the starter answers them when their dependency fails
 * or their tier is shed, and the handlers here never see those requests.
 */
@RestController
public class CatalogController {

	private static final List<Product> PRODUCTS = List.of(new Product(1, "Teacup"), new Product(2, "Kettle"),
			new Product(3, "Teapot"));

	private static final ParameterizedTypeReference<Map<String, Object>> JSON_OBJECT = new ParameterizedTypeReference<>() {
	};

	private final WebClient reviews;

	private final WebClient recommendations;

	private final Duration timeout;

	/**
	 * Create the controller.
	 * @param webClients Boot's builder, so that whatever the application configures for its web
	 * clients applies to these
	 * @param reviewsUrl where the reviews dependency listens
	 * @param recommendationsUrl where the recommendations dependency listens
	 * @param timeout how long a call to a dependency may take
	 */
	public CatalogController(WebClient.Builder webClients,
			@Value("${sample.dependencies.reviews-api.url}") String reviewsUrl,
			@Value("${sample.dependencies.recommendations-api.url}") String recommendationsUrl,
			@Value("${sample.dependencies.timeout:1s}") Duration timeout) {
		this.reviews = webClients.clone().baseUrl(reviewsUrl).build();
		this.recommendations = webClients.clone().baseUrl(recommendationsUrl).build();
		this.timeout = timeout;
	}

	/**
	 * Every product: the core of the catalog.
	 * @return the products
	 */
	@GetMapping("/api/products")
	public Flux<Product> products() {
		return Flux.fromIterable(PRODUCTS);
	}

	/**
	 * One product.
	 * @param id its id
	 * @return the product, or 404
	 */
	@GetMapping("/api/products/{id}")
	public Mono<Product> product(@PathVariable int id) {
		return Mono.justOrEmpty(PRODUCTS.stream().filter((product) -> product.id() == id).findFirst())
			.switchIfEmpty(Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND, "No product " + id)));
	}

	/**
	 * A product's reviews, from {@code reviews-api} (tier {@code enhanced}).
	 * @param id the product's id
	 * @return the dependency's answer
	 */
	@GetMapping(path = "/api/products/{id}/reviews", produces = MediaType.APPLICATION_JSON_VALUE)
	public Mono<Map<String, Object>> reviews(@PathVariable int id) {
		return fetch(this.reviews, "/reviews/" + id);
	}

	/**
	 * The products recommended to everyone, from {@code recommendations-api} (tier
	 * {@code best-effort}).
	 * @return the dependency's answer
	 */
	@GetMapping(path = "/api/recommendations", produces = MediaType.APPLICATION_JSON_VALUE)
	public Mono<Map<String, Object>> recommendations() {
		return fetch(this.recommendations, "/recommendations");
	}

	private Mono<Map<String, Object>> fetch(WebClient client, String path) {
		return client.get()
			.uri(path)
			.retrieve()
			.bodyToMono(JSON_OBJECT)
			.timeout(this.timeout);
	}

	/**
	 * A product of the catalog.
	 *
	 * @param id its id
	 * @param name its name
	 */
	public record Product(int id, String name) {

	}

}

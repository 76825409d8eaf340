package dev.degradation.sample.page;

import java.time.Duration;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import dev.degradation.parts.Gathering;
import dev.degradation.parts.LastGood;
import dev.degradation.parts.Part;
import dev.degradation.parts.PartGatherer;
import dev.degradation.sample.extras.RecommendationsApi;
import dev.degradation.sample.shop.Product;
import dev.degradation.sample.shop.ProductCatalog;

/**
 * The product page: the product (core, no fallback), its reviews (optional, the last good ones for
 * up to ten minutes) and recommendations (optional, unknown when they fail), the optional parts
 * gathered in parallel within {@link #PART_BUDGET} and the page within {@link #PAGE_DEADLINE}.
 */
@RestController
public class ProductPageController {

	/** The longest an optional part may take. */
	public static final Duration PART_BUDGET = Duration.ofMillis(300);

	/** The longest the page may take to gather its parts. */
	public static final Duration PAGE_DEADLINE = Duration.ofMillis(500);

	private final ProductCatalog catalog;

	private final ProductReviews reviews;

	private final RecommendationsApi recommendations;

	private final PartGatherer parts;

	private final LastGood<String, List<String>> lastReviews = LastGood.of(1000, Duration.ofMinutes(10));

	ProductPageController(ProductCatalog catalog, ProductReviews reviews, RecommendationsApi recommendations,
			PartGatherer parts) {
		this.catalog = catalog;
		this.reviews = reviews;
		this.recommendations = recommendations;
		this.parts = parts;
	}

	@GetMapping("/api/products/{id}/page")
	ProductPage page(@PathVariable String id, @RequestParam(defaultValue = "guest") String user) {
		Product product = this.catalog.find(id)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No product '" + id + "'"));
		// Started after the core is known: a page for a product that does not exist calls nothing.
		Gathering gathering = this.parts.gather(PAGE_DEADLINE);
		Part<List<String>> productReviews = gathering.optional("reviews", PART_BUDGET,
				() -> this.reviews.reviews(id), this.lastReviews, id);
		Part<List<String>> recommended = gathering.optional("recommendations", PART_BUDGET,
				() -> this.recommendations.recommend(user));
		return new ProductPage(product, productReviews.value(), recommended.value());
	}

}

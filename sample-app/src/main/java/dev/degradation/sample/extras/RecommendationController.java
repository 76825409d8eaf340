package dev.degradation.sample.extras;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.degradation.sample.shop.Product;
import dev.degradation.sample.shop.ProductCatalog;

/**
 * Product recommendations: tier {@code enhanced} of the manifest. Shed, the page shows no
 * suggestions; it still sells.
 */
@RestController
public class RecommendationController {

	private final RecommendationsApi recommendations;

	private final ProductCatalog catalog;

	RecommendationController(RecommendationsApi recommendations, ProductCatalog catalog) {
		this.recommendations = recommendations;
		this.catalog = catalog;
	}

	/**
	 * Recommend products to a user.
	 * @param user the user
	 * @return the recommended products that the catalog has
	 */
	@GetMapping("/api/recommendations")
	Recommendations recommendations(@RequestParam(defaultValue = "anonymous") String user) {
		List<Product> items = this.recommendations.recommend(user)
			.stream()
			.flatMap((id) -> this.catalog.find(id).stream())
			.toList();
		return new Recommendations(items, LiveAnswer.SOURCE);
	}

	/**
	 * Recommended products.
	 *
	 * @param items the products, best first
	 * @param source {@code live}
	 */
	record Recommendations(List<Product> items, String source) {

	}

}

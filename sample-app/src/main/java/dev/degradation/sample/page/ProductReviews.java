package dev.degradation.sample.page;

import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

/**
 * The reviews of the products. In the sample they are held in process; in a shop they would come
 * from a reviews service, which is why the page treats them as an optional part.
 */
@Component
public class ProductReviews {

	private static final Map<String, List<String>> REVIEWS = Map.of("p-1",
			List.of("Light and grippy.", "Wore out after 600 km."), "p-2", List.of("Kept me dry in a storm."));

	/**
	 * Return the reviews of a product.
	 * @param productId the product
	 * @return its reviews, possibly none
	 */
	public List<String> reviews(String productId) {
		return REVIEWS.getOrDefault(productId, List.of());
	}

}

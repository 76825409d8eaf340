package dev.degradation.sample.shop;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

import org.springframework.stereotype.Component;

/**
 * The products the shop sells, held in memory: the sample is about what happens around the
 * catalog, not about storing it.
 */
@Component
public class ProductCatalog {

	private final List<Product> products = List.of(
			new Product("p-1", "Trail running shoes", new BigDecimal("89.90")),
			new Product("p-2", "Rain jacket", new BigDecimal("129.00")),
			new Product("p-3", "Headlamp", new BigDecimal("34.50")),
			new Product("p-4", "Water bottle", new BigDecimal("12.00")));

	/**
	 * Return every product.
	 * @return the products, in catalog order
	 */
	public List<Product> all() {
		return this.products;
	}

	/**
	 * Return a product.
	 * @param id the product id
	 * @return the product, if the catalog has it
	 */
	public Optional<Product> find(String id) {
		return this.products.stream().filter((product) -> product.id().equals(id)).findFirst();
	}

}

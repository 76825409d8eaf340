package dev.degradation.sample.shop;

import java.math.BigDecimal;
import java.util.List;

/**
 * A placed order.
 *
 * @param id the order id, such as {@code o-1001}
 * @param lines the ordered products
 * @param total the total price, in euros
 */
public record Order(String id, List<Line> lines, BigDecimal total) {

	public Order {
		lines = List.copyOf(lines);
	}

	/**
	 * One ordered product.
	 *
	 * @param product the product
	 * @param quantity how many
	 */
	public record Line(Product product, int quantity) {

	}

}

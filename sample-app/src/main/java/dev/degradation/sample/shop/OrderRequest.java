package dev.degradation.sample.shop;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * An order as a client sends it, before it is checked.
 *
 * @param lines what to buy
 */
public record OrderRequest(@Nullable List<Line> lines) {

	/**
	 * One product and how many of it.
	 *
	 * @param productId the product id
	 * @param quantity how many, 1 or more
	 */
	public record Line(@Nullable String productId, int quantity) {

	}

}

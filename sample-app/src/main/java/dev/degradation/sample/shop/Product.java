package dev.degradation.sample.shop;

import java.math.BigDecimal;

/**
 * A product the shop sells.
 *
 * @param id the product id, such as {@code p-1}
 * @param name the display name
 * @param price the unit price, in euros
 */
public record Product(String id, String name, BigDecimal price) {

}

package dev.degradation.sample.page;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.degradation.sample.shop.Product;

/**
 * The product page as sent: a part that could not be had is {@code null} (unknown), never an
 * empty list, so that a consumer cannot mistake it for "nothing to show".
 *
 * @param product the product
 * @param reviews its reviews, or {@code null} when unknown
 * @param recommendations the ids of products recommended with it, or {@code null} when unknown
 */
public record ProductPage(Product product, @Nullable List<String> reviews, @Nullable List<String> recommendations) {

}

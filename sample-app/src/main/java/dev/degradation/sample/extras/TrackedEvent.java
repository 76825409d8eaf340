package dev.degradation.sample.extras;

import org.jspecify.annotations.Nullable;

/**
 * An analytics event sent by the shop's pages, such as a product view.
 *
 * @param name what happened, such as {@code product-viewed}
 * @param productId the product concerned, if any
 * @param user the user, if known
 */
public record TrackedEvent(@Nullable String name, @Nullable String productId, @Nullable String user) {

}

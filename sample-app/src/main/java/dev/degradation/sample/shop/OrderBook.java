package dev.degradation.sample.shop;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.stereotype.Component;

/**
 * Checks and keeps the shop's orders, in memory.
 */
@Component
public class OrderBook {

	private final ProductCatalog catalog;

	private final AtomicLong nextId = new AtomicLong(1001);

	private final Map<String, Order> orders = new ConcurrentHashMap<>();

	OrderBook(ProductCatalog catalog) {
		this.catalog = catalog;
	}

	/**
	 * Place an order.
	 * @param request the order as sent
	 * @return the placed order
	 * @throws InvalidOrderException if the order is empty, names an unknown product, or has a
	 * quantity below 1
	 */
	public Order place(OrderRequest request) {
		List<OrderRequest.Line> requested = request.lines();
		if (requested == null || requested.isEmpty()) {
			throw new InvalidOrderException("An order needs at least one line");
		}
		List<Order.Line> lines = new ArrayList<>();
		BigDecimal total = BigDecimal.ZERO;
		for (OrderRequest.Line line : requested) {
			String productId = line.productId();
			Product product = (productId != null) ? this.catalog.find(productId).orElse(null) : null;
			if (product == null) {
				throw new InvalidOrderException("No product '" + productId + "'");
			}
			if (line.quantity() < 1) {
				throw new InvalidOrderException(
						"The quantity of '" + productId + "' must be 1 or more, but it is " + line.quantity());
			}
			lines.add(new Order.Line(product, line.quantity()));
			total = total.add(product.price().multiply(BigDecimal.valueOf(line.quantity())));
		}
		Order order = new Order("o-" + this.nextId.getAndIncrement(), lines, total);
		this.orders.put(order.id(), order);
		return order;
	}

	/**
	 * Return a placed order.
	 * @param id the order id
	 * @return the order, if it was placed
	 */
	public Optional<Order> find(String id) {
		return Optional.ofNullable(this.orders.get(id));
	}

}

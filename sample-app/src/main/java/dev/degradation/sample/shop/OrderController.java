package dev.degradation.sample.shop;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Orders over HTTP. A core route: never shed.
 */
@RestController
public class OrderController {

	private final OrderBook orders;

	OrderController(OrderBook orders) {
		this.orders = orders;
	}

	@PostMapping("/api/orders")
	@ResponseStatus(HttpStatus.CREATED)
	Order place(@RequestBody OrderRequest request) {
		return this.orders.place(request);
	}

}

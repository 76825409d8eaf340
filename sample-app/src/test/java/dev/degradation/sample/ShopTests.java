package dev.degradation.sample;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.sample.shop.OrderBook;
import dev.degradation.test.AutoConfigureDegradation;

import static dev.degradation.sample.ShopClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shop's core routes: the catalog and orders.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureDegradation
class ShopTests {

	@LocalServerPort
	private int port;

	@Autowired
	private OrderBook orders;

	private ShopClient shop;

	@BeforeEach
	void connect() {
		this.shop = new ShopClient(this.port);
	}

	@Test
	void productsListsTheCatalog() {
		HttpResponse<String> response = this.shop.get("/api/products");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(json(response).valueStream().map((product) -> product.get("id").asString()))
			.containsExactly("p-1", "p-2", "p-3", "p-4");
	}

	@Test
	void productByIdAnswersThatProduct() {
		HttpResponse<String> response = this.shop.get("/api/products/p-3");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(json(response)).isEqualTo(json("{\"id\": \"p-3\", \"name\": \"Headlamp\", \"price\": 34.50}"));
	}

	@Test
	void unknownProductIsNotFound() {
		HttpResponse<String> response = this.shop.get("/api/products/p-999");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(json(response).get("detail").asString()).isEqualTo("No product 'p-999'");
	}

	@Test
	void placedOrderIsCreatedWithAnIdAndKept() {
		HttpResponse<String> response = this.shop.post("/api/orders",
				"{\"lines\": [{\"productId\": \"p-1\", \"quantity\": 2}, {\"productId\": \"p-4\", \"quantity\": 1}]}");
		assertThat(response.statusCode()).isEqualTo(201);
		JsonNode order = json(response);
		assertThat(order.get("total").decimalValue()).isEqualByComparingTo("191.80");
		assertThat(this.orders.find(order.get("id").asString())).isPresent();
	}

	@Test
	void orderWithoutLinesIsRejected() {
		HttpResponse<String> response = this.shop.post("/api/orders", "{\"lines\": []}");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).get("detail").asString()).isEqualTo("An order needs at least one line");
	}

	@Test
	void orderOfAnUnknownProductIsRejected() {
		HttpResponse<String> response = this.shop.post("/api/orders",
				"{\"lines\": [{\"productId\": \"p-999\", \"quantity\": 1}]}");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).get("detail").asString()).isEqualTo("No product 'p-999'");
	}

	@Test
	void orderOfZeroItemsIsRejected() {
		HttpResponse<String> response = this.shop.post("/api/orders",
				"{\"lines\": [{\"productId\": \"p-1\", \"quantity\": 0}]}");
		assertThat(response.statusCode()).isEqualTo(400);
	}

}

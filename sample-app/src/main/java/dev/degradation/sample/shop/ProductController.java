package dev.degradation.sample.shop;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The catalog over HTTP. A core route: never shed.
 */
@RestController
public class ProductController {

	private final ProductCatalog catalog;

	ProductController(ProductCatalog catalog) {
		this.catalog = catalog;
	}

	@GetMapping("/api/products")
	List<Product> products() {
		return this.catalog.all();
	}

	@GetMapping("/api/products/{id}")
	Product product(@PathVariable String id) {
		return this.catalog.find(id)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No product '" + id + "'"));
	}

}

package dev.degradation.samplereactive;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small reactive catalog on WebFlux: products (core, always served), reviews and
 * recommendations (optional features, each from a dependency, shed by the degradation starter
 * when their dependency fails or when an operator or a CI run sheds their tier). Its dependencies
 * run in-process, so that it runs with one command.
 */
@SpringBootApplication
public class ReactiveCatalogApplication {

	public static void main(String[] args) {
		SpringApplication.run(ReactiveCatalogApplication.class, args);
	}

}

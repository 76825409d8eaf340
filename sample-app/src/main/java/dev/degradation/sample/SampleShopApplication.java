package dev.degradation.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The sample shop: products and orders are its core and always answer; analytics, A/B
 * assignment, recommendations and personalization are extras that its degradation manifest sheds
 * when their dependencies fail or when an operator simulates a shed level.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleShopApplication {

	/**
	 * Start the shop.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleShopApplication.class, args);
	}

}

package dev.degradation.sample.shop;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * Thrown for an order the shop cannot accept; answered with 400 and the reason as the detail.
 */
public class InvalidOrderException extends ResponseStatusException {

	/**
	 * Create an exception.
	 * @param reason what is wrong with the order
	 */
	public InvalidOrderException(String reason) {
		super(HttpStatus.BAD_REQUEST, reason);
	}

}

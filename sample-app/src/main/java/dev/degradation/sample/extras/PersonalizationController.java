package dev.degradation.sample.extras;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The profile pages adapt to: tier {@code enhanced} of the manifest. Shed, everyone gets the
 * default profile.
 */
@RestController
public class PersonalizationController {

	private final PersonalizationService personalization;

	PersonalizationController(PersonalizationService personalization) {
		this.personalization = personalization;
	}

	/**
	 * Return the profile of a user.
	 * @param user the user
	 * @return the profile
	 */
	@GetMapping("/api/personalization")
	Personalization personalization(@RequestParam(defaultValue = "anonymous") String user) {
		return new Personalization(this.personalization.profile(user), LiveAnswer.SOURCE);
	}

	/**
	 * A user's profile.
	 *
	 * @param profile the profile name
	 * @param source {@code live}
	 */
	record Personalization(String profile, String source) {

	}

}

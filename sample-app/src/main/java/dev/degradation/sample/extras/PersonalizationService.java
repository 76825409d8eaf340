package dev.degradation.sample.extras;

import java.util.Map;

/**
 * Client of the {@code personalization-service} dependency: the profile the shop adapts its pages
 * to.
 */
public class PersonalizationService {

	private final RemoteDependency dependency;

	PersonalizationService(RemoteDependency dependency) {
		this.dependency = dependency;
	}

	/**
	 * Return the profile of a user.
	 * @param user the user
	 * @return the profile name, such as {@code outdoor-enthusiast}
	 * @throws DependencyUnavailableException if the dependency does not answer
	 */
	public String profile(String user) {
		return this.dependency.get("/profiles", Map.of("user", user), Profile.class).profile();
	}

	record Profile(String profile) {

	}

}

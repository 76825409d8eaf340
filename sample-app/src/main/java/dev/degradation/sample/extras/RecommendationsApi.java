package dev.degradation.sample.extras;

import java.util.List;
import java.util.Map;

/**
 * Client of the {@code recommendations-api} dependency: which products to suggest to a user.
 */
public class RecommendationsApi {

	private final RemoteDependency dependency;

	RecommendationsApi(RemoteDependency dependency) {
		this.dependency = dependency;
	}

	/**
	 * Return the ids of the products recommended to a user, best first.
	 * @param user the user
	 * @return the product ids
	 * @throws DependencyUnavailableException if the dependency does not answer
	 */
	public List<String> recommend(String user) {
		return this.dependency.get("/recommendations", Map.of("user", user), ProductIds.class).items();
	}

	record ProductIds(List<String> items) {

	}

}

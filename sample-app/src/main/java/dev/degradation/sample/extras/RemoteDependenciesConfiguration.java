package dev.degradation.sample.extras;

import java.net.http.HttpClient;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The HTTP clients of the shop's dependencies: one {@link RestClient} with short timeouts, shared
 * by a {@link RemoteDependency} per dependency, each with its own base URL.
 */
@Configuration(proxyBeanMethods = false)
public class RemoteDependenciesConfiguration {

	/** Name of the dependency that receives tracked events and assigns A/B variants. */
	static final String ANALYTICS_COLLECTOR = "analytics-collector";

	/** Name of the dependency that recommends products. */
	static final String RECOMMENDATIONS_API = "recommendations-api";

	/** Name of the dependency that holds customer profiles. */
	static final String PERSONALIZATION_SERVICE = "personalization-service";

	/**
	 * Built from Boot's {@link RestClient.Builder}, so that the starter guards every call to a
	 * dependency whose {@code base_url} it matches: a breaker, a time limit and retries within a
	 * budget, per dependency, as the manifest says. The request factory is the shop's own, made
	 * here by hand as many applications do: the starter gives each guarded request of it the call's
	 * time limit as its own timeout, so a call to a dependency that hangs waits on its request's
	 * thread and takes no thread of its own.
	 */
	@Bean
	RestClient dependenciesRestClient(RestClient.Builder builder, RemoteDependenciesProperties properties) {
		HttpClient httpClient = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(properties.timeout())
			.build();
		JdkClientHttpRequestFactory requestFactory = new JdkClientHttpRequestFactory(httpClient);
		// The whole wait for an answer: a dependency that hangs or is slow holds a request thread
		// of the shop at most this long.
		requestFactory.setReadTimeout(properties.timeout());
		return builder.requestFactory(requestFactory).build();
	}

	@Bean
	AnalyticsCollector analyticsCollector(RestClient dependenciesRestClient, RemoteDependenciesProperties properties) {
		return new AnalyticsCollector(new RemoteDependency(ANALYTICS_COLLECTOR, properties.analyticsCollector().url(),
				dependenciesRestClient));
	}

	@Bean
	RecommendationsApi recommendationsApi(RestClient dependenciesRestClient, RemoteDependenciesProperties properties) {
		return new RecommendationsApi(new RemoteDependency(RECOMMENDATIONS_API, properties.recommendationsApi().url(),
				dependenciesRestClient));
	}

	@Bean
	PersonalizationService personalizationService(RestClient dependenciesRestClient,
			RemoteDependenciesProperties properties) {
		return new PersonalizationService(new RemoteDependency(PERSONALIZATION_SERVICE,
				properties.personalizationService().url(), dependenciesRestClient));
	}

}

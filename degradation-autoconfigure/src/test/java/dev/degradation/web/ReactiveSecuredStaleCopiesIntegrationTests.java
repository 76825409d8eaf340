package dev.degradation.web;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.degradation.testapp.ApiKeySecuredTestApplication;

/**
 * The copies of a {@code stale} route of an API whose callers Spring Security authenticates by an
 * API key, on WebFlux and a real Reactor Netty server: the principal is read from the exchange
 * without blocking, and only for the routes that keep copies.
 */
@SpringBootTest(classes = ApiKeySecuredTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"degradation.manifest=classpath:manifests/secured-stale.yaml" })
class ReactiveSecuredStaleCopiesIntegrationTests extends SecuredStaleCopiesIntegrationTests {

}

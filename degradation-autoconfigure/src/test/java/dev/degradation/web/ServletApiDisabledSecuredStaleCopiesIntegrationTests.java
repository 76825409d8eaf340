package dev.degradation.web;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.degradation.testapp.ApiKeySecuredTestApplication;

/**
 * The copies of a {@code stale} route of an API authenticated by Spring Security on Spring MVC
 * with its servlet API integration turned off: the request reports no principal, and each caller
 * is still served only its own copies, known by Spring Security's context.
 */
@SpringBootTest(classes = ApiKeySecuredTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "testapp.servlet-api=disabled",
				"degradation.manifest=classpath:manifests/secured-stale.yaml" })
class ServletApiDisabledSecuredStaleCopiesIntegrationTests extends SecuredStaleCopiesIntegrationTests {

}

package dev.degradation.stacks;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour suite on Spring MVC and a real Tomcat whose requests run on virtual threads (Java
 * 21 and later), where a cheap answer's turn lasts a shortest time and Tomcat no longer bounds the
 * requests in flight. The default test run, on the build's Java 17, leaves it out; the
 * {@code virtual-threads} profile runs it on the machine's Java 25 JDK, as {@code .ci/run} does.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet",
				"management.endpoints.web.exposure.include=health,degradation,metrics",
				"management.endpoint.degradation.access=unrestricted",
				"management.endpoint.health.show-details=always", "spring.threads.virtual.enabled=true" })
class ServletStackBehaviourOnVirtualThreadsTests extends StackBehaviourTests {

	static final Fixture fixture = Fixture.start();

	@DynamicPropertySource
	static void dependencies(DynamicPropertyRegistry registry) {
		fixture.register(registry);
	}

	@AfterAll
	static void stop() {
		fixture.close();
	}

	@Test
	void theRequestsRunOnVirtualThreads() throws Exception {
		HttpResponse<String> thread = send("GET", "/api/thread", null);
		assertThat(thread.statusCode()).isEqualTo(200);
		assertThat(thread.body()).startsWith("VirtualThread[");
	}

	@Override
	Fixture fixture() {
		return fixture;
	}

	@Override
	String expectedStack() {
		return "Servlet";
	}

	@Override
	String sessionCookieName() {
		return "JSESSIONID";
	}

}

package dev.degradation.shapes.worker;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.WebApplicationContext;

import dev.degradation.actuate.DegradationEndpoint;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.monitor.DependencyState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker with the starter and no web server: it starts, nothing web-related is configured,
 * the Actuator's endpoint (a bean, without a web exposure to reach it by) sheds a tier by
 * simulation, and the real probes of a loopback dependency judge it failed and shed the route
 * that requires it.
 */
@SpringBootTest
class WorkerShapeTests {

	private static final LoopbackDependency inventory = LoopbackDependency.start();

	@Autowired
	ApplicationContext context;

	@Autowired
	DegradationEngine engine;

	@Autowired
	DegradationEndpoint endpoint;

	@DynamicPropertySource
	static void dependency(DynamicPropertyRegistry registry) {
		registry.add("shape.inventory.url", inventory::url);
	}

	@AfterAll
	static void stopDependency() {
		inventory.close();
	}

	@Test
	void theStarterLoadsWithoutAWebServerAndShedsBySimulationAndByAFailedDependency() {
		// Neither stack is on the class path, so nothing of the starter may need one.
		assertThat(ClassUtils.isPresent("jakarta.servlet.Servlet", null)).isFalse();
		assertThat(ClassUtils.isPresent("reactor.core.publisher.Mono", null)).isFalse();
		assertThat(this.context).isNotInstanceOf(WebApplicationContext.class);
		assertThat(this.engine.state().level()).isZero();

		assertThat(this.endpoint.simulate(true, 1, null, SecurityContext.NONE).shedTiers()).containsExactly("best-effort");
		assertThat(this.engine.state().shedCause(0)).startsWith("simulation");
		assertThat(this.engine.state().shedCause(1)).isNull();
		assertThat(this.endpoint.simulate(false, null, null, SecurityContext.NONE).shedTiers()).isEmpty();

		inventory.answer(LoopbackDependency.FAILING);
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(this.engine.dependency("inventory").state()).isEqualTo(DependencyState.FAILED));
		assertThat(this.engine.state().shedCause(1)).startsWith("dependency");
		assertThat(this.engine.state().shedCause(0)).isNull();
	}

}

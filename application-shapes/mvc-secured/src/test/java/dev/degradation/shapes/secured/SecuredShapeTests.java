package dev.degradation.shapes.secured;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.degradation.fixture.LoopbackDependency;
import dev.degradation.shapes.ShapeChecks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring MVC application behind Spring Security with its Actuator on a management port of its
 * own, on real servers with real probes: an unauthenticated request to a shed route gets 401, not
 * the fallback; an authenticated one gets the fallback; the endpoint on the management port says
 * every route is handled and sheds by simulation; a failed dependency sheds its route.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "management.server.port=0")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecuredShapeTests {

	private static final LoopbackDependency inventory = LoopbackDependency.start();

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@DynamicPropertySource
	static void dependency(DynamicPropertyRegistry registry) {
		registry.add("shape.inventory.url", inventory::url);
	}

	@AfterAll
	static void stopDependency() {
		inventory.close();
	}

	private ShapeChecks operator() {
		return ShapeChecks.onPorts(this.port, this.managementPort).withBasic("operator", "shape-secret");
	}

	@Test
	@Order(1)
	void theEndpointOnTheManagementPortSaysEveryRouteIsHandled() {
		assertThat(this.managementPort).isNotEqualTo(this.port);
		operator().assertEveryRouteHandled(2);
	}

	@Test
	@Order(2)
	void anUnauthenticatedRequestToAShedRouteGets401NotTheFallback() {
		ShapeChecks anonymous = ShapeChecks.onPorts(this.port, this.managementPort);
		HttpResponse<String> refused = anonymous.get("/api/annotated");
		assertThat(refused.statusCode()).isEqualTo(401);
		operator().assertShedBySimulation();
	}

	@Test
	@Order(3)
	void whileShedAnUnauthenticatedRequestStillGets401() {
		ShapeChecks anonymous = ShapeChecks.onPorts(this.port, this.managementPort);
		ShapeChecks operator = operator();
		operator.simulate(1);
		try {
			operator.assertShed("/api/annotated", "best-effort");
			HttpResponse<String> refused = anonymous.get("/api/annotated");
			assertThat(refused.statusCode()).isEqualTo(401);
			assertThat(refused.headers().firstValue("X-Degraded")).isEmpty();
		}
		finally {
			operator.simulate(0);
		}
	}

	@Test
	@Order(4)
	void aRouteIsShedByItsFailedDependency() {
		operator().assertShedByFailedDependency(inventory);
	}

}

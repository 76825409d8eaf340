package dev.degradation.gateway;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route's kind is named once and shared by its requests, and routes past the cap are still
 * named right.
 */
class GatewayRouteKindTests {

	@Test
	void aRoutesRequestsShareOneNameAndRoutesPastTheCapAreStillNamed() {
		GatewayRouteKind kind = new GatewayRouteKind();
		String first = kind.kindOf("catalog");
		assertThat(first).isEqualTo("gateway route catalog");
		assertThat(kind.kindOf("catalog")).isSameAs(first);
		for (int i = 0; i < 2000; i++) {
			assertThat(kind.kindOf("service-" + i)).isEqualTo("gateway route service-" + i);
		}
		assertThat(kind.kindOf("catalog")).isSameAs(first);
		assertThat(kind.kindOf("service-1999")).isEqualTo("gateway route service-1999")
			.isNotSameAs(kind.kindOf("service-1999"));
	}

}

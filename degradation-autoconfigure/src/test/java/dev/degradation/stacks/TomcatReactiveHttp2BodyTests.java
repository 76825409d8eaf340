package dev.degradation.stacks;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * Bodies over HTTP/2 on WebFlux served by Tomcat (h2c): the servlet adapter marks a body of
 * DATA frames neither with a length nor as chunked, as Reactor Netty's codec does.
 */
@SpringBootTest(classes = StackTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "server.http2.enabled=true",
				"spring.autoconfigure.exclude=org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
				"degradation.manifest=classpath:manifests/limit-evidence.yaml", "degradation.probes.enabled=false",
				"degradation.body.timeout=3s" })
class TomcatReactiveHttp2BodyTests extends Http2BodyTests {

}

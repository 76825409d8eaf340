package dev.degradation.web.reactive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.degradation.autoconfigure.DegradationAutoConfiguration;
import dev.degradation.autoconfigure.DegradationReactiveAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The startup warning for a Reactor Netty that can leave a keep-alive connection unread.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReactorNettyVersionCheckTests {

	@Test
	void aReactorNettyBefore138IsWarnedOfWithTheIssueAndTheRemedy() {
		for (String version : new String[] { "1.3.6", "1.3.7", "1.2.14", "1.3.0-RC1", "0.9.25.RELEASE" }) {
			assertThat(ReactorNettyVersionCheck.warning(version)).as(version)
				.contains("Reactor Netty " + version + " can stop reading a keep-alive HTTP/1.1 connection")
				.contains("reactor/reactor-netty#4361")
				.contains("1.3.8 or later");
		}
	}

	@Test
	void aReactorNettyFrom138OnOrOfAnUnknownVersionIsNot() {
		for (String version : new String[] { "1.3.8", "1.3.9", "1.3.10", "1.4.0-M1", "2.0.0", "1.3", "x.y.z", "",
				"1.3.99999999999" }) {
			assertThat(ReactorNettyVersionCheck.warning(version)).as(version).isNull();
		}
		assertThat(ReactorNettyVersionCheck.warning(null)).isNull();
	}

	@Test
	void theBuildsReactorNettyStartsAReactiveApplicationWithoutTheWarning(CapturedOutput output) {
		assertThat(reactor.netty.http.server.HttpServer.class.getPackage().getImplementationVersion())
			.as("the Reactor Netty this build runs").isNotNull();
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
					DegradationReactiveAutoConfiguration.class))
			.withPropertyValues("degradation.manifest=classpath:manifests/shop.yaml")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(DegradationWebFilter.class));
		assertThat(output).doesNotContain("can stop reading a keep-alive");
	}

}

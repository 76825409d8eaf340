package dev.degradation.stacks;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.test.context.TestPropertySource;

/**
 * What a caller cannot teach the limit, on Spring MVC whose requests run on virtual threads (Java
 * 21 and later), where Tomcat no longer bounds the requests in flight and admission alone does.
 * Run on the machine's Java 25 JDK by the {@code virtual-threads} profile, as {@code .ci/run} does.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@TestPropertySource(properties = "spring.threads.virtual.enabled=true")
class ServletLimitEvidenceOnVirtualThreadsTests extends ServletLimitEvidenceTests {

}

package dev.degradation.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.degradation.actuate.DegradationHealthIndicator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata that IDEs complete properties from: the file the configuration
 * processor writes for this module, merged with
 * {@code META-INF/additional-spring-configuration-metadata.json}, says what the processor cannot
 * work out alone, and says it as the code behaves.
 */
class ConfigurationMetadataTests {

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	@Test
	void theFilterOrderHasItsDefaultWhichTheProcessorCannotComputeFromTheConstant() throws IOException {
		JsonNode order = property("degradation.filter.order");
		assertThat(order.get("type").asString()).isEqualTo("java.lang.Integer");
		assertThat(order.get("description").asString()).contains("Spring Security");
		assertThat(order.get("defaultValue").isInt()).isTrue();
		assertThat(order.get("defaultValue").asInt()).isEqualTo(-90)
			.isEqualTo(new DegradationFilterProperties().getOrder());
	}

	@Test
	void theHealthCheckToggleIsDescribedAsSpringBootDescribesItsOwn() throws IOException {
		JsonNode enabled = property("management.health.degradation.enabled");
		assertThat(enabled.get("type").asString()).isEqualTo("java.lang.Boolean");
		assertThat(enabled.get("description").asString()).isEqualTo("Whether to enable the degradation health check.");
		assertThat(enabled.get("defaultValue").isBoolean()).isTrue();
		assertThat(enabled.get("defaultValue").asBoolean()).isTrue();
	}

	@Test
	void thePriorityPropertiesAreDescribedOffByDefaultWithTheHeaderTheCodeHas() throws IOException {
		DegradationRequestProperties.Priority defaults = new DegradationRequestProperties().getPriority();
		JsonNode enabled = property("degradation.priority.enabled");
		assertThat(enabled.get("type").asString()).isEqualTo("java.lang.Boolean");
		assertThat(enabled.get("description").asString()).startsWith("Whether").contains("only lower");
		assertThat(enabled.get("defaultValue").asBoolean()).isFalse().isEqualTo(defaults.isEnabled());
		JsonNode header = property("degradation.priority.header");
		assertThat(header.get("type").asString()).isEqualTo("java.lang.String");
		assertThat(header.get("defaultValue").asString()).isEqualTo("X-Degradation-Priority")
			.isEqualTo(defaults.getHeader());
		assertThat(defaults.headerWhenEnabled()).isNull();
	}

	@Test
	void theDeadlinePropertiesAreDescribedWithTheDefaultsTheCodeHas() throws IOException {
		DegradationRequestProperties.Deadline defaults = new DegradationRequestProperties().getDeadline();
		JsonNode header = property("degradation.deadline.header");
		assertThat(header.get("type").asString()).isEqualTo("java.lang.String");
		assertThat(header.get("description").asString()).contains("deadline", "milliseconds");
		assertThat(header.has("defaultValue")).as("a default for %s", header).isTrue();
		assertThat(header.get("defaultValue").asString()).isEqualTo("x-envoy-expected-rq-timeout-ms")
			.isEqualTo(defaults.getHeader());
		JsonNode max = property("degradation.deadline.max");
		assertThat(max.get("type").asString()).isEqualTo("java.time.Duration");
		assertThat(max.get("description").asString()).contains("Longest deadline");
		assertThat(max.has("defaultValue")).as("a default for %s", max).isTrue();
		// Read as Boot binds a Duration, so that "30s" and PT30S would both match the code.
		assertThat(DurationStyle.detectAndParse(max.get("defaultValue").asString())).isEqualTo(Duration.ofSeconds(30))
			.isEqualTo(defaults.getMax());
	}

	@Test
	void theHealthCheckIsOnByDefaultAndOffWithTheToggleAsTheMetadataSays() {
		WebApplicationContextRunner runner = new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
					DegradationHealthAutoConfiguration.class))
			.withPropertyValues("degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false");
		runner.run((context) -> assertThat(context).hasSingleBean(DegradationHealthIndicator.class));
		runner.withPropertyValues("management.health.degradation.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DegradationHealthIndicator.class));
	}

	/**
	 * Return the property from this module's metadata: of the class path's metadata files (every
	 * Spring Boot jar has one), the only one that declares the {@code degradation} group.
	 */
	private static JsonNode property(String name) throws IOException {
		JsonNode metadata = moduleMetadata();
		List<JsonNode> found = new ArrayList<>();
		for (JsonNode property : metadata.get("properties")) {
			if (name.equals(property.get("name").asString())) {
				found.add(property);
			}
		}
		assertThat(found).as("'%s' in %s", name, METADATA).hasSize(1);
		return found.get(0);
	}

	private static JsonNode moduleMetadata() throws IOException {
		JsonMapper json = JsonMapper.shared();
		List<JsonNode> ours = new ArrayList<>();
		for (URL url : Collections.list(ConfigurationMetadataTests.class.getClassLoader().getResources(METADATA))) {
			try (InputStream in = url.openStream()) {
				JsonNode metadata = json.readTree(in);
				// Several properties classes share the 'degradation' prefix: count the file once.
				for (JsonNode group : metadata.path("groups")) {
					if ("degradation".equals(group.path("name").asString())) {
						ours.add(metadata);
						break;
					}
				}
			}
		}
		assertThat(ours).as("class path files %s that declare the 'degradation' group", METADATA).hasSize(1);
		return ours.get(0);
	}

}

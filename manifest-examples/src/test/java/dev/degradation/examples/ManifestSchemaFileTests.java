package dev.degradation.examples;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.degradation.manifest.BreakerPolicy;
import dev.degradation.manifest.HealthCheck;
import dev.degradation.manifest.ManifestDefaults;
import dev.degradation.manifest.ManifestValidator;
import dev.degradation.manifest.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the JSON Schema file itself: that the copy shipped here is the one in the
 * auto-configuration jar, that it is a draft-07 schema, and that it documents and closes every
 * key as an editor needs.
 */
class ManifestSchemaFileTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void theSchemaShippedWithTheExamplesIsByteForByteTheOneInTheAutoConfigurationJar() throws IOException {
		assertThat(resource(ManifestSchema.LOCATION)).isNotEmpty()
			.isEqualTo(resource(ManifestValidator.SCHEMA_LOCATION));
	}

	@Test
	void theSchemaIsValidUnderTheDraft07MetaSchema() throws IOException {
		// The meta-schema comes from the validator's jar, not from the network.
		Schema metaSchema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
			.getSchema(SchemaLocation.of("http://json-schema.org/draft-07/schema#"));
		JsonNode schema = schema();
		assertThat(schema.path("$schema").asString()).isEqualTo("http://json-schema.org/draft-07/schema#");
		assertThat(metaSchema.validate(schema)).isEmpty();
	}

	@Test
	void everyKeyHasADescription() {
		List<String> keys = new ArrayList<>();
		forEachObjectSchema(schema(), "", (path, node) -> {
			for (Map.Entry<String, JsonNode> property : node.path("properties").properties()) {
				keys.add(path + "." + property.getKey());
				assertThat(property.getValue().path("description").asString()).as(path + "." + property.getKey())
					.isNotBlank();
			}
		});
		assertThat(keys).contains(".tiers", "#/definitions/route.static_response",
				"#/definitions/dependency.health_url", ".defaults.hysteresis_seconds");
	}

	@Test
	void everyMappingWithKnownKeysAllowsNoOtherKey() {
		List<String> closed = new ArrayList<>();
		forEachObjectSchema(schema(), "", (path, node) -> {
			if (node.has("properties")) {
				closed.add(path);
				assertThat(node.path("additionalProperties").isBoolean()).as(path).isTrue();
				assertThat(node.path("additionalProperties").asBoolean()).as(path).isFalse();
			}
		});
		assertThat(closed).containsExactlyInAnyOrder("", ".defaults", "#/definitions/dependency",
				"#/definitions/breaker", "#/definitions/retry", "#/definitions/tier", "#/definitions/route");
	}

	@Test
	void theDefaultsOfTheSchemaAreTheLoadersDefaults() {
		JsonNode defaults = schema().path("properties").path("defaults").path("properties");
		HealthCheck standard = ManifestDefaults.STANDARD.healthCheck();
		assertThat(defaults.path("health_check_interval_ms").path("default").asLong())
			.isEqualTo(standard.interval().toMillis());
		assertThat(defaults.path("timeout_ms").path("default").asLong()).isEqualTo(standard.timeout().toMillis());
		assertThat(defaults.path("window_seconds").path("default").asLong()).isEqualTo(standard.window().toSeconds());
		assertThat(defaults.path("min_samples").path("default").asInt()).isEqualTo(standard.minSamples());
		assertThat(defaults.path("failure_threshold").path("default").decimalValue())
			.isEqualByComparingTo(BigDecimal.valueOf(standard.failureThreshold()));
		assertThat(defaults.path("recovery_threshold").path("default").decimalValue())
			.isEqualByComparingTo(BigDecimal.valueOf(standard.recoveryThreshold()));
		assertThat(defaults.path("hysteresis_seconds").path("default").asLong())
			.isEqualTo(ManifestDefaults.STANDARD.hysteresis().toSeconds());
		assertThat(defaults.path("failed_dependency_sheds").path("default").asString())
			.isEqualTo(ManifestDefaults.STANDARD.failedDependencySheds().key());
	}

	@Test
	void theBreakerAndRetryDefaultsOfTheSchemaAreTheLoadersDefaults() {
		JsonNode definitions = schema().path("definitions");
		JsonNode breaker = definitions.path("breaker").path("properties");
		BreakerPolicy standardBreaker = BreakerPolicy.standard(Duration.ofSeconds(1));
		assertThat(breaker.path("failure_rate_threshold").path("default").decimalValue())
			.isEqualByComparingTo(BigDecimal.valueOf(standardBreaker.failureRateThreshold()));
		assertThat(breaker.path("slow_call_rate_threshold").path("default").decimalValue())
			.isEqualByComparingTo(BigDecimal.valueOf(standardBreaker.slowCallRateThreshold()));
		assertThat(breaker.path("window_size").path("default").asInt()).isEqualTo(standardBreaker.windowSize());
		assertThat(breaker.path("minimum_calls").path("default").asInt()).isEqualTo(standardBreaker.minimumCalls());
		assertThat(breaker.path("open_ms").path("default").asLong()).isEqualTo(standardBreaker.open().toMillis());
		assertThat(breaker.path("half_open_calls").path("default").asInt())
			.isEqualTo(standardBreaker.halfOpenCalls());
		JsonNode retry = definitions.path("retry").path("properties");
		RetryPolicy standardRetry = RetryPolicy.standard(Duration.ofSeconds(1));
		assertThat(retry.path("max_attempts").path("default").asInt()).isEqualTo(standardRetry.maxAttempts());
		assertThat(retry.path("backoff_ms").path("default").asLong()).isEqualTo(standardRetry.backoff().toMillis());
		assertThat(retry.path("max_retry_after_ms").path("default").asLong())
			.isEqualTo(standardRetry.maxRetryAfter().toMillis());
		assertThat(retry.path("methods").path("default").valueStream().map(JsonNode::asString))
			.containsExactlyInAnyOrderElementsOf(standardRetry.methods());
	}

	private static JsonNode schema() {
		return JSON.readTree(resource(ManifestSchema.LOCATION));
	}

	/**
	 * Visit the schema of every mapping a manifest can hold: the root, what its keys lead to, and
	 * each definition; conditional parts ({@code allOf}, {@code if}/{@code then}) only narrow
	 * these and are not visited.
	 */
	private static void forEachObjectSchema(JsonNode node, String path, ObjectSchemaVisitor visitor) {
		JsonNode type = node.path("type");
		boolean object = type.isArray() ? type.valueStream().anyMatch((item) -> item.asString().equals("object"))
				: type.asString("").equals("object");
		if (object) {
			visitor.visit(path, node);
		}
		for (Map.Entry<String, JsonNode> property : node.path("properties").properties()) {
			forEachObjectSchema(property.getValue(), path + "." + property.getKey(), visitor);
		}
		for (Map.Entry<String, JsonNode> definition : node.path("definitions").properties()) {
			forEachObjectSchema(definition.getValue(), "#/definitions/" + definition.getKey(), visitor);
		}
	}

	private static byte[] resource(String location) {
		try (InputStream input = ManifestSchemaFileTests.class.getClassLoader().getResourceAsStream(location)) {
			assertThat(input).as(location).isNotNull();
			return input.readAllBytes();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@FunctionalInterface
	private interface ObjectSchemaVisitor {

		void visit(String path, JsonNode node);

	}

}

package dev.degradation.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLAnchorReplayingFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The JSON Schema of the manifest as this module ships it, applied the way an editor applies it:
 * the YAML is read into a JSON tree and the tree is validated.
 */
final class ManifestSchema {

	/** Where this module ships the schema (copied from the auto-configuration jar by the build). */
	static final String LOCATION = "schema/degradation-manifest.schema.json";

	// Decimals stay exact, as the loader reads them: 1e-400 is above 0, not 0.0. Aliases stand for
	// the values their anchors name, as an editor reads them (Jackson's plain YAML parser would
	// read an alias as the text of its name).
	private static final YAMLMapper YAML = YAMLMapper.builder(new YAMLAnchorReplayingFactory())
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.build();

	private final Schema schema;

	private ManifestSchema(Schema schema) {
		this.schema = schema;
	}

	static ManifestSchema load() {
		try (InputStream input = ManifestSchema.class.getClassLoader().getResourceAsStream(LOCATION)) {
			if (input == null) {
				throw new IllegalStateException("No " + LOCATION + " on the class path");
			}
			return new ManifestSchema(SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(input));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Validate a manifest.
	 * @param yaml the content of the file
	 * @return the errors, one line each; empty when the schema accepts the manifest
	 */
	List<String> validate(byte[] yaml) {
		List<JsonNode> documents;
		try (MappingIterator<JsonNode> values = YAML.readerFor(JsonNode.class).readValues(yaml)) {
			documents = values.readAll();
		}
		catch (JacksonException ex) {
			return List.of("not readable as YAML: " + ex.getOriginalMessage());
		}
		if (documents.isEmpty()) {
			return List.of("empty document");
		}
		// Like an editor, validate each document of a file on its own.
		List<String> errors = new ArrayList<>();
		for (int i = 0; i < documents.size(); i++) {
			String document = (documents.size() > 1) ? "document " + (i + 1) + ": " : "";
			this.schema.validate(withYamlNulls(documents.get(i)))
				.forEach((error) -> errors.add(document + error));
		}
		return errors;
	}

	/**
	 * Jackson reads an empty value and '~' as text; YAML (and so an editor) reads them as null, and
	 * so does the loader.
	 */
	private static JsonNode withYamlNulls(JsonNode node) {
		JsonNodeFactory nodes = JsonNodeFactory.instance;
		if (node.isString() && (node.stringValue().isEmpty() || node.stringValue().equals("~"))) {
			return nodes.nullNode();
		}
		if (node.isObject()) {
			ObjectNode copy = nodes.objectNode();
			for (Map.Entry<String, JsonNode> property : node.properties()) {
				copy.set(property.getKey(), withYamlNulls(property.getValue()));
			}
			return copy;
		}
		if (node.isArray()) {
			ArrayNode copy = nodes.arrayNode();
			node.values().forEach((item) -> copy.add(withYamlNulls(item)));
			return copy;
		}
		return node;
	}

}

package dev.degradation.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.SwitchState;
import dev.degradation.testapp.JsonHttp;
import dev.degradation.testapp.JsonHttp.Answer;
import dev.degradation.testapp.ShopTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint's writes on a real server are typed strictly and aimed by their URL: a body that
 * names another target, a value of the wrong JSON type, malformed JSON and a body that is no
 * object are refused with a message that says what was wrong, and nothing changes.
 */
@SpringBootTest(classes = ShopTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "degradation.manifest=classpath:manifests/shop.yaml", "degradation.probes.enabled=false",
				"management.endpoints.web.exposure.include=degradation",
				"management.endpoint.degradation.access=unrestricted" })
class EndpointWritesIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	DegradationEngine engine;

	@Test
	void aBodyThatNamesAnotherTargetThanTheUrlIsRefusedAndSwitchesNothing() throws Exception {
		Answer answer = actuator().post("/actuator/degradation/switches/best-effort",
				"{\"state\": \"off\", \"name\": \"enhanced\"}");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.json().get("message").asString())
			.isEqualTo("'name' is not taken in the body: the URL names the target (switches/best-effort)");
		Answer section = actuator().post("/actuator/degradation/switches/best-effort",
				"{\"state\": \"down\", \"section\": \"dependencies\"}");
		assertThat(section.status()).isEqualTo(400);
		assertThat(section.json().get("message").asString()).contains("'section' is not taken in the body");
		assertThat(this.engine.state().shedsAnything()).isFalse();
	}

	@Test
	void anUnknownKeyIsRefusedWithTheKeysTheWriteTakesAndNoneOfTheUrlsParts() throws Exception {
		Answer answer = actuator().post("/actuator/degradation/switches/best-effort", "{\"stat\": \"off\"}");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.json().get("message").asString())
			.isEqualTo("Unknown key 'stat'; this operation takes 'state', 'ttl'");
	}

	@ParameterizedTest(name = "{0} is refused: {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
			{"enabled": "yes", "level": 1}  | 'enabled' must be true or false, but was the string "yes"
			{"enabled": 1, "level": 1}      | 'enabled' must be true or false, but was the number 1
			{"enabled": "no"}               | 'enabled' must be true or false, but was the string "no"
			{"enabled": "banana"}           | 'enabled' must be true or false, but was the string "banana"
			{"enabled": true, "level": "1"} | 'level' must be a whole number from 0, such as 2, but was the string "1"
			{"enabled": true, "level": "one"} | 'level' must be a whole number from 0, such as 2, but was the string "one"
			{"enabled": true, "level": 1.5} | 'level' must be a whole number from 0, such as 2, but was the number 1.5
			{"enabled": true, "level": -1}  | 'level' must be a whole number from 0, such as 2, but was the number -1
			{"enabled": true, "level": 1, "ttl": 15} | 'ttl' must be a duration as a string, such as "15m", but was the number 15
			{"level": 1}                    | 'enabled' is required; such as {"enabled": true, "level": 2} or {"enabled": false}
			{"enabled": true, "level": 1    | The body is not valid JSON
			[true]                          | The body must be a JSON object, but it is an array
			""")
	void aSimulationWhoseValuesAreNotOfTheirTypeIsRefusedWithTheKeyTheValueAndWhatIsAccepted(String body,
			String message) throws Exception {
		Answer answer = actuator().post("/actuator/degradation", body);
		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.json().get("message").asString()).startsWith(message);
		assertThat(this.engine.state().simulation().enabled()).isFalse();
	}

	@Test
	void anEmptyBodyIsRefusedWithWhatASimulationTakes() throws Exception {
		Answer answer = actuator().post("/actuator/degradation", "");
		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.json().get("message").asString()).isEqualTo(
				"'enabled' is required; such as {\"enabled\": true, \"level\": 2} or {\"enabled\": false}");
	}

	@Test
	void aSwitchStateOfAnotherTypeIsRefusedAndAWellTypedOneSwitches() throws Exception {
		Answer refused = actuator().post("/actuator/degradation/switches/best-effort", "{\"state\": false}");
		assertThat(refused.json().get("message").asString())
			.isEqualTo("'state' must be 'off' or 'on' (a string), but was the boolean false");
		Answer switched = actuator().post("/actuator/degradation/switches/best-effort", "{\"state\": \"off\"}");
		assertThat(switched.status()).isEqualTo(200);
		assertThat(this.engine.state().shedsAnything()).isTrue();
		assertThat(actuator().delete("/actuator/degradation/switches/best-effort").status()).isEqualTo(200);
	}

	@Test
	void aWellTypedSimulationStillWorks() throws Exception {
		Answer answer = actuator().post("/actuator/degradation", "{\"enabled\": true, \"level\": 1, \"ttl\": \"5m\"}");
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.json().get("level").asInt()).isEqualTo(1);
		assertThat(actuator().post("/actuator/degradation", "{\"enabled\": false}").status()).isEqualTo(200);
		assertThat(this.engine.state().level()).isZero();
	}

	@Test
	void theDocumentedReloadWithoutContentTypeOrBodyReloadsTheManifest() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/degradation/manifest"))
				.POST(HttpRequest.BodyPublishers.noBody())
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"level\":0");
	}

	@Test
	void aBodyOfAnotherMediaTypeIsRefusedWithWhatWritesTake() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/degradation"))
				.header("Content-Type", "text/plain")
				.POST(HttpRequest.BodyPublishers.ofString("enabled=true"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(415);
		assertThat(response.body()).contains("Writes take a JSON body (Content-Type: application/json), not text/plain");
	}

	@Test
	void theSwitchBodyIsNotMistakenForAnotherTarget() throws Exception {
		assertThat(this.engine.signals()).isNotEmpty();
		actuator().post("/actuator/degradation/switches/best-effort", "{\"state\": \"off\", \"name\": \"enhanced\"}");
		assertThat(actuator().get("/actuator/degradation").json().get("switches").get("enhanced").asString())
			.isEqualTo(SwitchState.ON.name());
	}

	private JsonHttp actuator() {
		return new JsonHttp(this.port);
	}

}

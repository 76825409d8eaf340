package dev.degradation.test.contract;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Sends the contract's requests through a {@link WebTestClient}, bound to the application as
 * {@code @WebFluxTest} binds it: through the application's web filters (the degradation filter
 * among them) without a server.
 */
final class WebTestClientContractClient implements ContractClient {

	private final WebTestClient client;

	WebTestClientContractClient(WebTestClient client) {
		this.client = client;
	}

	@Override
	public ContractAnswer send(ContractRequest request) {
		// A URI, not a URI template: the sample path is concrete and must be sent as it is.
		WebTestClient.RequestBodySpec spec = this.client.method(HttpMethod.valueOf(request.method()))
			.uri(URI.create(request.target()));
		request.headers().forEach((name, value) -> spec.header(name, value));
		WebTestClient.RequestHeadersSpec<?> sent = (request.body() != null) ? spec.bodyValue(request.body()) : spec;
		EntityExchangeResult<byte[]> result = sent.exchange().expectBody().returnResult();
		HttpHeaders responseHeaders = result.getResponseHeaders();
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String name : responseHeaders.headerNames()) {
			headers.put(name, responseHeaders.get(name));
		}
		byte[] body = result.getResponseBody();
		return new ContractAnswer(result.getStatus().value(), headers,
				(body != null) ? new String(body, StandardCharsets.UTF_8) : "");
	}

	@Override
	public String toString() {
		return "WebTestClient";
	}

}

package dev.degradation.test.contract;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends the contract's requests over HTTP to the application's running server, through every
 * filter and servlet the server has.
 */
final class HttpContractClient implements ContractClient {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(TIMEOUT)
		.build();

	private final String baseUrl;

	/**
	 * Create a client.
	 * @param baseUrl the URL of the application, with its context path, without a trailing slash
	 */
	HttpContractClient(String baseUrl) {
		this.baseUrl = baseUrl;
	}

	@Override
	public ContractAnswer send(ContractRequest request) throws IOException, InterruptedException {
		HttpRequest.BodyPublisher body = (request.body() != null) ? HttpRequest.BodyPublishers.ofString(request.body())
				: HttpRequest.BodyPublishers.noBody();
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(this.baseUrl + request.target()))
			.timeout(TIMEOUT)
			.method(request.method(), body);
		request.headers().forEach(builder::header);
		HttpResponse<String> response = this.http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
		return new ContractAnswer(response.statusCode(), response.headers().map(), response.body());
	}

	@Override
	public String toString() {
		return this.baseUrl;
	}

}

package dev.degradation.test.contract;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpMethod;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

/**
 * Sends the contract's requests through MockMvc, with the filters that MockMvc was given (the
 * degradation filter among them, unless {@code @AutoConfigureMockMvc(addFilters = false)}).
 */
final class MockMvcContractClient implements ContractClient {

	private final MockMvc mockMvc;

	MockMvcContractClient(MockMvc mockMvc) {
		this.mockMvc = mockMvc;
	}

	@Override
	public ContractAnswer send(ContractRequest request) throws Exception {
		MockHttpServletResponse response = this.mockMvc.perform(builder(request)).andReturn().getResponse();
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String name : response.getHeaderNames()) {
			headers.put(name, response.getHeaders(name));
		}
		return new ContractAnswer(response.getStatus(), headers, response.getContentAsString(StandardCharsets.UTF_8));
	}

	/**
	 * Return the request as MockMvc builds it. A URI, not a URI template: the sample path is
	 * concrete and must be sent as it is.
	 * @param request the request
	 * @return the builder
	 */
	static MockHttpServletRequestBuilder builder(ContractRequest request) {
		MockHttpServletRequestBuilder builder = MockMvcRequestBuilders.request(HttpMethod.valueOf(request.method()),
				URI.create(request.target()));
		request.headers().forEach(builder::header);
		if (request.body() != null) {
			builder.content(request.body());
		}
		return builder;
	}

	@Override
	public String toString() {
		return "MockMvc";
	}

}

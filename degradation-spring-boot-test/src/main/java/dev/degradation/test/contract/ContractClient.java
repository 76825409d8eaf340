package dev.degradation.test.contract;

/**
 * How the contract tests send their requests: through MockMvc, or over HTTP to a running server.
 */
interface ContractClient {

	/**
	 * Send a request and return the answer.
	 * @param request the request
	 * @return the answer
	 * @throws Exception if the request cannot be sent
	 */
	ContractAnswer send(ContractRequest request) throws Exception;

}

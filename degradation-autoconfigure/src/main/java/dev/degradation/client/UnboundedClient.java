package dev.degradation.client;

import java.util.List;

/**
 * A client of the application whose guarded calls the starter cannot bound on their caller's
 * thread: each of them takes a thread of the guards' bounded executor (which refuses a call when
 * full), where a client the starter can bound costs none. Said once at startup and shown by the
 * {@code degradation} endpoint.
 *
 * @param client which client: the bean it is or was built from, its base URL
 * @param dependencies the dependencies it calls, as far as its base URL tells
 * @param reason why its calls cannot be bounded, and what to do about it
 */
public record UnboundedClient(String client, List<String> dependencies, String reason) {

}

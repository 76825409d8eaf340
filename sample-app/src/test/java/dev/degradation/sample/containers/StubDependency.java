package dev.degradation.sample.containers;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * One of the shop's dependencies as a separate process, run in a container by the container
 * suite: its health endpoint and the data endpoint the shop calls, with the answers of the shop's
 * embedded dependencies. Faults come from outside (the container is paused, stopped, started), so
 * the stub itself is always healthy. Plain JDK only, so that it runs on a jlink'd runtime of
 * {@code java.base} and {@code jdk.httpserver}.
 */
public final class StubDependency {

	private static final Map<String, String> ANSWERS = Map.of("/recommendations", "{\"items\":[\"p-2\",\"p-3\"]}",
			"/assignments", "{\"variant\":\"treatment\"}", "/profiles", "{\"profile\":\"outdoor-enthusiast\"}",
			"/healthz", "{\"status\":\"UP\"}");

	private StubDependency() {
	}

	/**
	 * Serve on {@code 127.0.0.1:<port>} until the process is stopped.
	 * @param args the port
	 * @throws IOException if the port cannot be bound
	 */
	public static void main(String[] args) throws IOException {
		int port = Integer.parseInt(args[0]);
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
		server.createContext("/", StubDependency::handle);
		server.setExecutor(Executors.newFixedThreadPool(8));
		server.start();
		System.out.println("READY on 127.0.0.1:" + port);
	}

	private static void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			if (exchange.getRequestMethod().equals("POST") && path.equals("/events")) {
				exchange.getRequestBody().readAllBytes();
				exchange.sendResponseHeaders(202, -1);
				return;
			}
			String answer = ANSWERS.get(path);
			byte[] body = ((answer != null) ? answer : "{\"error\":\"not found\"}").getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders((answer != null) ? 200 : 404, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

}

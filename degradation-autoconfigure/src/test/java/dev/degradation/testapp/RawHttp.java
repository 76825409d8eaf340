package dev.degradation.testapp;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Sends a request with its request target exactly as written, byte for byte, which
 * {@code java.net.http.HttpClient} does not promise (it validates and may normalize the URI).
 * HTTP/1.0 keeps the answer unchunked and closes the connection after it.
 */
public final class RawHttp {

	private final int port;

	public RawHttp(int port) {
		this.port = port;
	}

	public Response send(String method, String target, String... headerLines) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(10_000);
			StringBuilder request = new StringBuilder();
			request.append(method).append(' ').append(target).append(" HTTP/1.0\r\n");
			request.append("Host: 127.0.0.1:").append(this.port).append("\r\n");
			for (String header : headerLines) {
				request.append(header).append("\r\n");
			}
			if (method.equals("POST")) {
				request.append("Content-Length: 0\r\n");
			}
			request.append("\r\n");
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			return parse(socket.getInputStream().readAllBytes());
		}
	}

	private static Response parse(byte[] raw) {
		String text = new String(raw, StandardCharsets.UTF_8);
		int headerEnd = text.indexOf("\r\n\r\n");
		String head = (headerEnd >= 0) ? text.substring(0, headerEnd) : text;
		String body = (headerEnd >= 0) ? text.substring(headerEnd + 4) : "";
		String[] lines = head.split("\r\n");
		int status = Integer.parseInt(lines[0].split(" ")[1]);
		Map<String, String> headers = new LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0) {
				headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
						lines[i].substring(colon + 1).trim());
			}
		}
		return new Response(status, headers, body);
	}

	/**
	 * An answer as received.
	 *
	 * @param status the status code
	 * @param headers the headers, names in lower case
	 * @param body the body as text
	 */
	public record Response(int status, Map<String, String> headers, String body) {

		public @Nullable String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

		public boolean degraded() {
			return "true".equals(header("X-Degraded"));
		}

	}

}

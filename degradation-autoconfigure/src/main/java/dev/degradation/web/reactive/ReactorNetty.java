package dev.degradation.web.reactive;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * Whether Reactor Netty serves an exchange, told by the class of the server's own request or
 * response beneath any decorator. Reactor Netty frames every body it passes on, takes an answer
 * handed over whole into its own buffers at once, and lets a body nobody read go; a servlet
 * container under WebFlux's servlet adapter (Tomcat, Jetty) does none of these, and the starter
 * does them itself there. An exchange of no server (a test's mock) counts as Reactor Netty's:
 * its headers say all there is.
 */
final class ReactorNetty {

	private static final String PACKAGE = "reactor.netty.";

	private ReactorNetty() {
	}

	/**
	 * Return whether Reactor Netty received a request.
	 * @param request the request, decorated or not
	 * @return {@code true} for Reactor Netty's or a request of no server
	 */
	static boolean serves(ServerHttpRequest request) {
		try {
			return ofReactorNetty(ServerHttpRequestDecorator.getNativeRequest(request));
		}
		catch (RuntimeException ex) {
			return true;
		}
	}

	/**
	 * Return whether Reactor Netty sends a response.
	 * @param response the response, decorated or not
	 * @return {@code true} for Reactor Netty's or a response of no server
	 */
	static boolean serves(ServerHttpResponse response) {
		try {
			return ofReactorNetty(ServerHttpResponseDecorator.getNativeResponse(response));
		}
		catch (RuntimeException ex) {
			return true;
		}
	}

	private static boolean ofReactorNetty(Object nativeObject) {
		return nativeObject.getClass().getName().startsWith(PACKAGE);
	}

}

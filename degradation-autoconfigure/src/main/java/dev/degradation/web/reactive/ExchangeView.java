package dev.degradation.web.reactive;

import java.net.InetSocketAddress;
import java.security.Principal;

import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;

import dev.degradation.web.RequestView;

/**
 * An exchange's request as the decision reads it, without copying.
 */
final class ExchangeView implements RequestView {

	private final ServerHttpRequest request;

	private @Nullable Principal principal;

	ExchangeView(ServerHttpRequest request) {
		this.request = request;
	}

	/**
	 * Make known the principal the exchange is authenticated as, which only the exchange can
	 * look up (a {@code Mono}, from the security context).
	 * @param principal the principal, or {@code null} when the exchange has none
	 */
	void principal(@Nullable Principal principal) {
		this.principal = principal;
	}

	@Override
	public @Nullable Principal principal() {
		return this.principal;
	}

	@Override
	public @Nullable String callerAddress() {
		InetSocketAddress address = this.request.getRemoteAddress();
		return (address != null) ? address.getHostString() : null;
	}

	@Override
	public int localPort() {
		InetSocketAddress address = this.request.getLocalAddress();
		return (address != null) ? address.getPort() : -1;
	}

	@Override
	public String method() {
		return this.request.getMethod().name();
	}

	@Override
	public PathContainer pathWithinApplication() {
		return this.request.getPath().pathWithinApplication();
	}

	@Override
	public String rawPath() {
		return this.request.getPath().value();
	}

	@Override
	public @Nullable String rawQuery() {
		return this.request.getURI().getRawQuery();
	}

	@Override
	public @Nullable String header(String name) {
		return this.request.getHeaders().getFirst(name);
	}

}


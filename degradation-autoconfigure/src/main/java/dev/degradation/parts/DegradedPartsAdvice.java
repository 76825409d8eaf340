package dev.degradation.parts;

import org.jspecify.annotations.Nullable;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Sets {@code X-Degraded-Parts} on the body a handler returns, from the gathering the handler
 * started in the same request, just before the body is written (after that the headers are
 * sent). {@link #attachToCurrentRequest(Gathering)} is the gatherer's start hook that ties a
 * gathering to the request.
 */
@ControllerAdvice
public class DegradedPartsAdvice implements ResponseBodyAdvice<Object> {

	/** The request attribute that holds the request's {@link Gathering}. */
	public static final String GATHERING_ATTRIBUTE = Gathering.class.getName();

	/**
	 * Tie a gathering to the current request, if there is one.
	 * @param gathering the gathering that just started
	 */
	public static void attachToCurrentRequest(Gathering gathering) {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (attributes != null) {
			attributes.setAttribute(GATHERING_ATTRIBUTE, gathering, RequestAttributes.SCOPE_REQUEST);
		}
	}

	@Override
	public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
		return true;
	}

	@Override
	public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType,
			MediaType selectedContentType, Class<? extends HttpMessageConverter<?>> selectedConverterType,
			ServerHttpRequest request, ServerHttpResponse response) {
		if (request instanceof ServletServerHttpRequest servletRequest
				&& servletRequest.getServletRequest().getAttribute(GATHERING_ATTRIBUTE) instanceof Gathering gathering) {
			String degraded = gathering.degradedParts();
			if (degraded != null) {
				response.getHeaders().set(Gathering.HEADER, degraded);
			}
		}
		return body;
	}

}

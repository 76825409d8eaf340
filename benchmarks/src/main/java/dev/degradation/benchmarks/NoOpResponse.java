package dev.degradation.benchmarks;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

/**
 * A response that keeps only what was last written to it, so that a benchmark of a fallback
 * writer measures the writer and not a container's header table or buffers (the load script
 * measures those, on a real Tomcat).
 */
final class NoOpResponse implements HttpServletResponse {

	private final Body body = new Body();

	private final PrintWriter writer = new PrintWriter(Writer.nullWriter());

	@Nullable String lastHeader;

	int status;

	@Nullable String contentType;

	long contentLength;

	@Override
	public void setHeader(String name, @Nullable String value) {
		this.lastHeader = value;
	}

	@Override
	public void addHeader(String name, @Nullable String value) {
		this.lastHeader = value;
	}

	@Override
	public void setStatus(int sc) {
		this.status = sc;
	}

	@Override
	public int getStatus() {
		return this.status;
	}

	@Override
	public void setContentType(@Nullable String type) {
		this.contentType = type;
	}

	@Override
	public @Nullable String getContentType() {
		return this.contentType;
	}

	@Override
	public void setContentLength(int len) {
		this.contentLength = len;
	}

	@Override
	public void setContentLengthLong(long len) {
		this.contentLength = len;
	}

	@Override
	public ServletOutputStream getOutputStream() {
		return this.body;
	}

	@Override
	public PrintWriter getWriter() {
		return this.writer;
	}

	long written() {
		return this.body.written;
	}

	@Override
	public void addCookie(Cookie cookie) {
	}

	@Override
	public boolean containsHeader(String name) {
		return false;
	}

	@Override
	public String encodeURL(String url) {
		return url;
	}

	@Override
	public String encodeRedirectURL(String url) {
		return url;
	}

	@Override
	public void sendError(int sc, String msg) {
		this.status = sc;
	}

	@Override
	public void sendError(int sc) {
		this.status = sc;
	}

	@Override
	public void sendRedirect(String location) {
	}

	@Override
	public void sendRedirect(String location, int sc, boolean clearBuffer) {
	}

	@Override
	public void setDateHeader(String name, long date) {
	}

	@Override
	public void addDateHeader(String name, long date) {
	}

	@Override
	public void setIntHeader(String name, int value) {
	}

	@Override
	public void addIntHeader(String name, int value) {
	}

	@Override
	public @Nullable String getHeader(String name) {
		return null;
	}

	@Override
	public Collection<String> getHeaders(String name) {
		return List.of();
	}

	@Override
	public Collection<String> getHeaderNames() {
		return List.of();
	}

	@Override
	public String getCharacterEncoding() {
		return "UTF-8";
	}

	@Override
	public void setCharacterEncoding(String charset) {
	}

	@Override
	public void setBufferSize(int size) {
	}

	@Override
	public int getBufferSize() {
		return 0;
	}

	@Override
	public void flushBuffer() {
	}

	@Override
	public void resetBuffer() {
	}

	@Override
	public boolean isCommitted() {
		return false;
	}

	@Override
	public void reset() {
	}

	@Override
	public void setLocale(Locale loc) {
	}

	@Override
	public Locale getLocale() {
		return Locale.ROOT;
	}

	private static final class Body extends ServletOutputStream {

		long written;

		@Override
		public void write(int b) {
			this.written++;
		}

		@Override
		public void write(byte[] b, int off, int len) {
			this.written += len;
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setWriteListener(WriteListener listener) {
		}

	}

}

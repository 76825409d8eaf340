package dev.degradation.web.servlet;

/**
 * The server's own limits on a posted form, which the starter keeps when it reads an admitted
 * request's form itself (so that a form that trickles in cannot hold its place): a form the
 * server would not parse is not parsed here either, but left to the server, which refuses it.
 * From the server's settings ({@code server.tomcat.max-http-form-post-size} and
 * {@code server.tomcat.max-parameter-count}, or Jetty's), never larger than Tomcat's defaults.
 *
 * @param maxBytes the largest form, by its declared length, read here; a larger one is the server's
 * @param maxParameters the most parameters such a form may have; more are refused with {@code 400}
 */
public record FormLimits(int maxBytes, int maxParameters) {

	/** The most a form read here may be, whatever the server allows: Tomcat's default {@code maxPostSize}. */
	public static final int MOST_BYTES = 2 * 1024 * 1024;

	/** The most parameters a form read here may have: Tomcat's default {@code maxParameterCount}. */
	public static final int MOST_PARAMETERS = 1000;

	/** Tomcat's defaults. */
	public static final FormLimits TOMCAT_DEFAULTS = new FormLimits(MOST_BYTES, MOST_PARAMETERS);

	/**
	 * Create the limits, each at most Tomcat's default: a server without a limit (a negative one)
	 * gets that default here.
	 * @param maxBytes the largest form read here
	 * @param maxParameters the most parameters such a form may have
	 */
	public FormLimits {
		maxBytes = (maxBytes < 0) ? MOST_BYTES : Math.min(maxBytes, MOST_BYTES);
		maxParameters = (maxParameters < 0) ? MOST_PARAMETERS : Math.min(maxParameters, MOST_PARAMETERS);
	}

}

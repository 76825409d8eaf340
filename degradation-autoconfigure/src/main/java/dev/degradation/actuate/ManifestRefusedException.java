package dev.degradation.actuate;

import java.util.List;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

/**
 * A manifest reload was refused: the new manifest has problems (or cannot be read), and the
 * active one stays. The web extension answers {@code 400} with every positioned problem.
 */
public class ManifestRefusedException extends InvalidEndpointRequestException {

	private static final long serialVersionUID = 1L;

	private final transient ManifestReload.Result result;

	/**
	 * Create an exception for a refused reload.
	 * @param result what the reload found
	 */
	public ManifestRefusedException(ManifestReload.Result result) {
		super(message(result), message(result));
		this.result = result;
	}

	/**
	 * Return every problem of the refused manifest, each as {@code file:line:column: path: message}.
	 * @return the problems
	 */
	public List<String> problems() {
		return this.result.problems().stream().map(Object::toString).toList();
	}

	private static String message(ManifestReload.Result result) {
		return "Refused the manifest at '" + result.location() + "': " + result.reason()
				+ "; the active manifest stays";
	}

}

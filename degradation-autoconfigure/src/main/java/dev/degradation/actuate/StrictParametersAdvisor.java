package dev.degradation.actuate;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameter;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

/**
 * Makes the {@code degradation} endpoint's write operations as strict as the manifest: a key in
 * the body (or the query) that the operation does not take answers {@code 400} with the keys it
 * does take, instead of being ignored, so that {@code {"enabled": true, "levle": 2}} is never
 * taken for a simulation at no level.
 */
public class StrictParametersAdvisor implements OperationInvokerAdvisor {

	private static final EndpointId DEGRADATION = EndpointId.of("degradation");

	private static final String ACTUATOR_TYPES = "org.springframework.boot.actuate.";

	@Override
	public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
			OperationInvoker invoker) {
		if (!DEGRADATION.equals(endpointId) || operationType == OperationType.READ) {
			return invoker;
		}
		// Parameters of the actuator's own types (the security context, the server namespace) are
		// resolved by the framework, never sent by the caller.
		Set<String> known = parameters.stream()
			.filter((parameter) -> !parameter.getType().getName().startsWith(ACTUATOR_TYPES))
			.map(OperationParameter::getName)
			.collect(Collectors.toSet());
		// The selectors are parts of the URL: a caller never sends them in the body, so they are
		// not among the keys an operation is said to take.
		Set<String> taken = parameters.stream()
			.filter((parameter) -> !parameter.getType().getName().startsWith(ACTUATOR_TYPES))
			.filter((parameter) -> parameter.getAnnotation(Selector.class) == null)
			.map(OperationParameter::getName)
			.collect(Collectors.toCollection(TreeSet::new));
		return (context) -> {
			Set<String> unknown = new TreeSet<>(context.getArguments().keySet());
			unknown.removeAll(known);
			if (!unknown.isEmpty()) {
				return DegradationEndpointWebExtension.badRequest("Unknown key" + ((unknown.size() > 1) ? "s " : " ")
						+ unknown.stream().map((key) -> "'" + key + "'").collect(Collectors.joining(", "))
						+ "; this operation takes " + (taken.isEmpty() ? "no key"
								: taken.stream().map((key) -> "'" + key + "'").collect(Collectors.joining(", "))));
			}
			return invoker.invoke(context);
		};
	}

}

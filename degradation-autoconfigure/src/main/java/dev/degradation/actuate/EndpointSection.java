package dev.degradation.actuate;

import java.util.function.Supplier;

/**
 * A section that a part of the starter other than the engine's signals adds at the top level of
 * the {@code degradation} endpoint's answer, such as the clients whose guarded calls need a
 * thread: the endpoint shows what it is given and knows nothing of the part.
 *
 * @param name the key of the section in the answer; one that the answer or a signal already has
 * is not shown
 * @param content what the section shows now, read at each request
 */
public record EndpointSection(String name, Supplier<?> content) {

}

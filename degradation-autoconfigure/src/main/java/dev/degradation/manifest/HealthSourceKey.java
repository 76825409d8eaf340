package dev.degradation.manifest;

/**
 * A key of a dependency that a health source of the application judges it by, such as the name
 * of a broker's topic or of a connection pool: with it, the dependency is judged by that source
 * as it would be by {@code health_url} or {@code health_indicator}, and a typo of it is reported
 * as any unknown key is. Its value is text (placeholders resolved), found in
 * {@link Dependency#sourceKey(String)}.
 *
 * @param name the key, such as {@code kafka_topic}
 * @param meaning what it holds, for the problems of a manifest, such as {@code the topic whose
 * consumers' lag judges the dependency}
 */
public record HealthSourceKey(String name, String meaning) {

}

package dev.degradation.sample.extras;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the shop's dependencies are and how long a call to them may take.
 *
 * @param url base URL of the dependencies; each one answers under {@code <url>/<name>/}. Set by
 * the embedded dependencies unless configured
 * @param timeout time a call may take, connection included; short, because a feature that waits
 * for a failing dependency holds a request thread the core routes need
 */
@ConfigurationProperties("sample.dependencies")
public record RemoteDependenciesProperties(URI url, @DefaultValue("2s") Duration timeout) {

}

/**
 * Spring Cloud service discovery as the starter uses it: the application's discovery client as
 * the monitor asks it for a service's instances, and the startup check of the manifest's
 * {@code lb://} URLs against it. Loaded only with Spring Cloud Commons on the class path; above
 * the monitor it feeds, below the auto-configuration that creates it.
 */
@NullMarked
package dev.degradation.discovery;

import org.jspecify.annotations.NullMarked;

package dev.degradation.engine;

import java.time.Instant;

import dev.degradation.manifest.DegradationManifest;

/**
 * The engine's manifest was replaced by a newer one (a reload), as told to
 * {@link DegradationListener listeners}, so that what depends on the manifest (meters, probes)
 * follows.
 *
 * @param previous the manifest before
 * @param manifest the manifest now
 * @param at when it was replaced
 */
public record ManifestReplaced(DegradationManifest previous, DegradationManifest manifest, Instant at) {

}

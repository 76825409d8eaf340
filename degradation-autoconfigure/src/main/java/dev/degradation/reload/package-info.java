/**
 * What a running application takes again from its configuration: the manifest (its configured
 * location, and the reloader that validates a new manifest whole, checks it as startup did and
 * swaps the route table and the engine's manifest together) and the operator switches of
 * {@code degradation.switches}, re-applied when the Environment changes. Above the manifest, the engine and the request decision it
 * replaces together, below the auto-configuration that creates it and the endpoint that asks for
 * it.
 */
@NullMarked
package dev.degradation.reload;

import org.jspecify.annotations.NullMarked;

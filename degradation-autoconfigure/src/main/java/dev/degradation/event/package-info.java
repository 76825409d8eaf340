/**
 * What the starter tells the application of its changes: one Spring application event for each
 * change of the shed level, of the shed routes, of a dependency's state and of the manifest, and
 * the listener and thread that publish them. A package of its own and public, so that an
 * application's listeners depend on these types alone and never on the auto-configuration, which
 * may change shape between releases.
 */
@NullMarked
package dev.degradation.event;

import org.jspecify.annotations.NullMarked;

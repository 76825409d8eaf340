/**
 * Auto-configuration of the degradation starter: properties, conditions, the beans that wire the
 * manifest, engine, filter, endpoint and meters together, and the failure analyzers that explain
 * a bad manifest at startup.
 */
@NullMarked
package dev.degradation.autoconfigure;

import org.jspecify.annotations.NullMarked;

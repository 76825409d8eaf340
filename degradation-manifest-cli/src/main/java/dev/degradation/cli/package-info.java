/**
 * The command line of the manifest validator: {@code java -jar degradation-manifest-cli.jar}.
 */
@NullMarked
package dev.degradation.cli;

import org.jspecify.annotations.NullMarked;

/**
 * The handlers of an application as the starter reads them: Spring MVC's and WebFlux's annotated
 * request mappings and functional routes, a gateway's routes, and what a library contributes
 * ({@link dev.degradation.handler.WebFluxHandlerContributor}); and the check of the manifest
 * against them ({@link dev.degradation.handler.ManifestVerification}). A package of its own, apart
 * from the auto-configuration, because the manifest check, the endpoint's {@code handled} flag,
 * the reloader and the test module's generated contract tests all read handlers the same way.
 * Each stack's reader is a class of its own, so that an application with one stack on its class
 * path never loads the other's types.
 */
@NullMarked
package dev.degradation.handler;

import org.jspecify.annotations.NullMarked;

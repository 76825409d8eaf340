/**
 * The request path: the compiled route table, the fallback writers and the servlet filter that
 * answers shed routes with their fallback.
 */
@NullMarked
package dev.degradation.web;

import org.jspecify.annotations.NullMarked;

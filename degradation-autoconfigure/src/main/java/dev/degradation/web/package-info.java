/**
 * What no web stack owns: the compiled route table, the request decision (route, shed, admit,
 * refuse, cause) as one function of method, path, headers and state, and the fallback answers
 * built once as status, headers and bytes. Both stack adapters ({@code web.servlet},
 * {@code web.reactive}) carry its decisions out.
 */
@NullMarked
package dev.degradation.web;

import org.jspecify.annotations.NullMarked;

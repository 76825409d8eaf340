/**
 * The servlet stack's adapter of the request decision: the filter that reads a servlet request,
 * asks the decision and writes its answer or lets the request go on, with the stale copies of
 * live answers and the turns of cheap answers.
 */
@NullMarked
package dev.degradation.web.servlet;

import org.jspecify.annotations.NullMarked;

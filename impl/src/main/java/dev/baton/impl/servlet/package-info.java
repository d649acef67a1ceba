/**
 * The OpenAI-compatible endpoint and the operator endpoints. Internal: not API, may change without notice.
 */
package dev.baton.impl.servlet;

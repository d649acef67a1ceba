/**
 * Finds the provider adapters (ServiceLoader) and creates them with what Baton gives every adapter. Internal: not API, may change without notice.
 */
package dev.baton.impl.adapter;

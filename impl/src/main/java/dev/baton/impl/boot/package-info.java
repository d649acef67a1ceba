/**
 * The composition root: the one place that builds Baton from its configuration (adapters, engine, stores, the
 * endpoint's interceptor chain) and closes it. The CDI bean and the servlets are given what it built. Internal: not
 * API, may change without notice.
 */
package dev.baton.impl.boot;

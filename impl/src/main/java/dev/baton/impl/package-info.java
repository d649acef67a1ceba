/**
 * Baton's implementation. Internal: not API, may change without notice; applications use {@code dev.baton} and
 * adapters {@code dev.baton.spi}.
 */
package dev.baton.impl;

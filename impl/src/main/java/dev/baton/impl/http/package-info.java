/**
 * Baton's HTTP client and the transport adapters send through (it implements dev.baton.spi.ProviderTransport). Internal: not API, may change without notice.
 */
package dev.baton.impl.http;

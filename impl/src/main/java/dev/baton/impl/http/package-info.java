/**
 * Baton's HTTP transport: the client adapters send through (it implements dev.baton.spi.ProviderTransport), its
 * exchanges and its failure classification. The wire formats it reads live in baton-wire. Internal: not API, may
 * change without notice.
 */
package dev.baton.impl.http;

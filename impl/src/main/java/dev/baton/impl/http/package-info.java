/**
 * Baton's HTTP transport: {@code HttpExchange}, the {@code dev.baton.spi.ProviderTransport} adapters send through;
 * {@code BatonHttpClient}, which speaks HTTP/1.1 on Netty and hands each response to a {@code ResponseReader}; and
 * {@code Transport}, which classifies what fails. The wire formats it reads live in baton-wire. Internal: not API,
 * may change without notice.
 */
package dev.baton.impl.http;

/**
 * Service provider interfaces: provider adapters ({@link dev.baton.spi.ProviderAdapterFactory}, found with
 * {@link java.util.ServiceLoader}). Stable, but may grow.
 */
package dev.baton.spi;

/** Service provider interfaces: provider adapters and record stores. Stable, but may grow. */
package dev.baton.spi;

/**
 * Request records in the server's database ({@code baton.records.store=jdbc}): {@link
 * dev.baton.impl.record.jdbc.JdbcRecordStore}, found by baton-impl through {@link
 * dev.baton.impl.record.jdbc.JdbcRecordStoreProvider}. Plain JDBC: the server brings the driver. Internal: not API,
 * may change without notice.
 */
package dev.baton.impl.record.jdbc;

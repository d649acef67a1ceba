package dev.baton.impl.record.jdbc;

import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;

/** The contract against the local PostgreSQL ({@code 127.0.0.1:5432/test}, trust auth). */
class JdbcRecordStorePostgresTest extends JdbcRecordStoreContract {

    @Override
    protected DataSource createDataSource() {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {"127.0.0.1"});
        ds.setPortNumbers(new int[] {5432});
        ds.setDatabaseName("test");
        ds.setUser("postgres");
        ds.setConnectTimeout(5);
        return ds;
    }
}

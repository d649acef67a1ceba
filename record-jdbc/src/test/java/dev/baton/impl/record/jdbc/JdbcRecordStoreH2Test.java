package dev.baton.impl.record.jdbc;

import org.h2.jdbcx.JdbcDataSource;

import javax.sql.DataSource;
import java.util.UUID;

/** The contract against an in-memory H2 in its default mode. */
class JdbcRecordStoreH2Test extends JdbcRecordStoreContract {

    @Override
    protected DataSource createDataSource() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:baton_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        return ds;
    }
}

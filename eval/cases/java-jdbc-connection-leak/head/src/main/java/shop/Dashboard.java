package shop;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

public final class Dashboard {
    private final DataSource dataSource;

    public Dashboard(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public long customerCount() throws SQLException {
        Connection connection = dataSource.getConnection();
        ResultSet rows = connection.createStatement().executeQuery("select count(*) from customers");
        rows.next();
        return rows.getLong(1);
    }
}

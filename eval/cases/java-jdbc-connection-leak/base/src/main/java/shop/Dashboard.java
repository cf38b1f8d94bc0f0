package shop;

import javax.sql.DataSource;

public final class Dashboard {
    private final DataSource dataSource;

    public Dashboard(DataSource dataSource) {
        this.dataSource = dataSource;
    }
}

using Microsoft.Data.SqlClient;

namespace Shop.Reports;

public sealed class SalesReport
{
    private readonly SqlConnection _connection;

    public SalesReport(SqlConnection connection) => _connection = connection;

    public SqlCommand Totals() => new SqlCommand("select region, sum(amount) from sales group by region", _connection);

    public SqlCommand TotalsFor(string region) =>
        new SqlCommand("select sum(amount) from sales where region = '" + region + "'", _connection);
}

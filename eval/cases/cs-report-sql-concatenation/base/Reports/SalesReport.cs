using Microsoft.Data.SqlClient;

namespace Shop.Reports;

public sealed class SalesReport
{
    private readonly SqlConnection _connection;

    public SalesReport(SqlConnection connection) => _connection = connection;

    public SqlCommand Totals() => new SqlCommand("select region, sum(amount) from sales group by region", _connection);
}

namespace Shop.Catalogue;

public sealed class Refresher
{
    private readonly ICatalogueClient _client;

    public Refresher(ICatalogueClient client) => _client = client;

    public Task RefreshAsync() => _client.ReloadAsync();
}

namespace Shop.Catalogue;

public sealed class Refresher
{
    private readonly ICatalogueClient _client;
    private Timer? _timer;

    public Refresher(ICatalogueClient client) => _client = client;

    public Task RefreshAsync() => _client.ReloadAsync();

    public void Start(TimeSpan every) => _timer = new Timer(OnTick, null, TimeSpan.Zero, every);

    private async void OnTick(object? state)
    {
        await _client.ReloadAsync();
    }
}

namespace Shop.Notifications;

public sealed class NotificationSender
{
    private readonly ITransport _transport;

    public NotificationSender(ITransport transport) => _transport = transport;

    public Task SendAsync(string to, string text) => _transport.DeliverAsync(to, text);
}

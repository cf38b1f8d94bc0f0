namespace Shop.Notifications;

public sealed class EmailSender
{
    private readonly ITransport _transport;

    public EmailSender(ITransport transport) => _transport = transport;

    public Task SendAsync(string to, string text) => _transport.DeliverAsync(to, text);
}

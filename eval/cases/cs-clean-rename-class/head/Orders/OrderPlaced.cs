using Shop.Notifications;

namespace Shop.Orders;

public sealed class OrderPlaced
{
    private readonly NotificationSender _sender;

    public OrderPlaced(NotificationSender sender) => _sender = sender;

    public Task NotifyAsync(string customer) => _sender.SendAsync(customer, "Thank you for your order.");
}

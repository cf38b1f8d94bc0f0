FREE_SHIPPING_FROM = 50


def shipping_cost(subtotal, express=False):
    """The shipping fee for an order.

    Standard shipping is free from FREE_SHIPPING_FROM; express shipping is never free.
    """
    if subtotal >= FREE_SHIPPING_FROM and not express:
        return 0
    return 9 if express else 4

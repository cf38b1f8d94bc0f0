FREE_SHIPPING_FROM = 50


def shipping_cost(subtotal, express=False):
    if subtotal >= FREE_SHIPPING_FROM and not express:
        return 0
    return 9 if express else 4

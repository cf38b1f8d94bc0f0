export interface CartItem {
  sku: string;
  price: number;
  quantity: number;
}

export function cartTotal(items: CartItem[]): number {
  let total = 0;
  for (const item of items) total += item.price * item.quantity;
  return total;
}

export function averagePrice(items: CartItem[]): number {
  const units = items.reduce((n, item) => n + item.quantity, 0);
  return cartTotal(items) / units;
}

import { averagePrice, type CartItem, cartTotal } from './cart.js';

export function summary(items: CartItem[]): string {
  return `Total: ${cartTotal(items).toFixed(2)} (average ${averagePrice(items).toFixed(2)})`;
}

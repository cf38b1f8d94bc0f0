export interface Order {
  id: string;
  placedAt: string;
}

export function newestFirst(orders: Order[]): Order[] {
  return [...orders].sort((a, b) => b.placedAt.localeCompare(a.placedAt));
}

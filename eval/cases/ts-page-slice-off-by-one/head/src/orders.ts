export interface Order {
  id: string;
  placedAt: string;
}

export function newestFirst(orders: Order[]): Order[] {
  return [...orders].sort((a, b) => b.placedAt.localeCompare(a.placedAt));
}

export function page(orders: Order[], index: number, size: number): Order[] {
  const start = index * size;
  return newestFirst(orders).slice(start, start + size - 1);
}

export interface OrderLine {
  sku: string;
  quantity: number;
}

export interface OrderRepo {
  linesOf(orderId: string): Promise<OrderLine[]>;
  linesOfMany(orderIds: string[]): Promise<Map<string, OrderLine[]>>;
}

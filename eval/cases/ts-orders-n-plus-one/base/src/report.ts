import type { OrderRepo } from './repo.js';

export async function weeklyReport(repo: OrderRepo, ids: string[]): Promise<string[]> {
  return ids.map((id) => `order ${id}`);
}

import type { OrderRepo } from './repo.js';

export async function weeklyReport(repo: OrderRepo, ids: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of ids) {
    const lines = await repo.linesOf(id);
    out.push(`order ${id}: ${lines.map((l) => `${l.quantity}x ${l.sku}`).join(', ')}`);
  }
  return out;
}

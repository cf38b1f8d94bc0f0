import { describe, expect, it } from 'vitest';
import { DeliveryBatcher } from './delivery-batcher.js';
import type { WebhookDeliveriesRepository, WebhookDeliveryRecord } from './trigger-records.js';

const delivery = (id: string) => ({ id }) as WebhookDeliveryRecord;

function fakeRepository(failIds: string[] = []) {
  const batches: string[][] = [];
  const repository = {
    async recordMany(deliveries: readonly WebhookDeliveryRecord[]) {
      batches.push(deliveries.map((d) => d.id));
      await new Promise((r) => setTimeout(r, 5));
      if (deliveries.some((d) => failIds.includes(d.id))) throw new Error('constraint failed');
      return deliveries.map((d): 'duplicate' | 'recorded' => (d.id.startsWith('dup') ? 'duplicate' : 'recorded'));
    },
  } as unknown as WebhookDeliveriesRepository;
  return { repository, batches };
}

describe('DeliveryBatcher', () => {
  it('writes deliveries of one turn in one commit, and those arriving meanwhile in the next', async () => {
    const { repository, batches } = fakeRepository();
    const batcher = new DeliveryBatcher(() => repository);
    const first = ['a', 'b', 'dup-c'].map((id) => batcher.record(delivery(id)));
    await new Promise((r) => setImmediate(r));
    const later = ['d', 'e'].map((id) => batcher.record(delivery(id)));
    expect(await Promise.all([...first, ...later])).toEqual([
      'recorded',
      'recorded',
      'duplicate',
      'recorded',
      'recorded',
    ]);
    expect(batches).toEqual([
      ['a', 'b', 'dup-c'],
      ['d', 'e'],
    ]);
  });

  it('fails only the delivery that cannot be written', async () => {
    const { repository } = fakeRepository(['bad']);
    const batcher = new DeliveryBatcher(() => repository);
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((id) => batcher.record(delivery(id))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('caps a batch', async () => {
    const { repository, batches } = fakeRepository();
    const batcher = new DeliveryBatcher(() => repository, 2);
    await Promise.all(['a', 'b', 'c'].map((id) => batcher.record(delivery(id))));
    expect(batches).toEqual([['a', 'b'], ['c']]);
  });
});

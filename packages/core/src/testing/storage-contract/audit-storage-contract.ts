import { describe, expect, it } from 'vitest';
import type { AuditEntryRecord } from '../../audit/index.js';
import type { StorageGetter } from './fixtures.js';

const entry = (n: number, tenantId: string | null, at: string): AuditEntryRecord => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  at,
  tenantId,
  clientId: null,
  actorUserId: 'u1',
  action: 'tenant.updated',
  resourceType: 'tenant',
  resourceId: tenantId ?? 'installation',
  summary: `change ${n}`,
});

export function auditStorageContract(storage: StorageGetter): void {
  describe('audit entries', () => {
    it('lists a tenant’s entries and all entries newest first, a page at a time', async () => {
      const a = 'aaaaaaaa-0000-4000-8000-000000000000';
      const b = 'bbbbbbbb-0000-4000-8000-000000000000';
      // Two entries share a time: the id orders them, so paging neither skips nor repeats one.
      const rows = [
        entry(1, a, '2026-03-01T10:00:00.000Z'),
        entry(2, b, '2026-03-01T10:00:01.000Z'),
        entry(3, a, '2026-03-01T10:00:02.000Z'),
        entry(4, a, '2026-03-01T10:00:02.000Z'),
        entry(5, null, '2026-03-01T10:00:03.000Z'),
      ];
      for (const row of rows) await storage().auditEntries.insert(row);

      const first = await storage().auditEntries.listForTenant(a, { limit: 2 });
      expect(first.items.map((e) => e.summary)).toEqual(['change 4', 'change 3']);
      const second = await storage().auditEntries.listForTenant(a, { limit: 2, cursor: first.nextCursor });
      expect(second).toEqual({ items: [rows[0]], nextCursor: null });

      const all = await storage().auditEntries.listAll({ limit: 10 });
      expect(all.items.map((e) => e.summary)).toEqual(['change 5', 'change 4', 'change 3', 'change 2', 'change 1']);
      expect(all.items[0]).toEqual(rows[4]);
    });

    it('writes an entry with the change it records, or not at all', async () => {
      const kept = entry(1, null, '2026-03-01T10:00:00.000Z');
      await storage().transaction((tx) => tx.auditEntries.insert(kept));
      await expect(
        storage().transaction(async (tx) => {
          await tx.auditEntries.insert(entry(2, null, '2026-03-01T10:00:01.000Z'));
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect((await storage().auditEntries.listAll({ limit: 10 })).items).toEqual([kept]);
    });
  });
}

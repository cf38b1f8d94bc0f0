import type { ClientBudgetRecord, ClientBudgetsRepository } from '@margin/core/spec';
import { readTime, readTimeOrNull } from '../dialect.js';
import { type Db, numberOrNull, type Row } from '../rows.js';

const budgetFromRow = (row: Row): ClientBudgetRecord => ({
  clientId: String(row.client_id),
  monthlySoftCapUsd: numberOrNull(row.monthly_soft_cap_usd),
  monthlyHardCapUsd: numberOrNull(row.monthly_hard_cap_usd),
  pullRequestSoftCapUsd: numberOrNull(row.pull_request_soft_cap_usd),
  pullRequestHardCapUsd: numberOrNull(row.pull_request_hard_cap_usd),
  incrementSoftCapUsd: numberOrNull(row.increment_soft_cap_usd),
  incrementHardCapUsd: numberOrNull(row.increment_hard_cap_usd),
  periodStartedAt: readTimeOrNull(row.period_started_at),
  updatedAt: readTime(row.updated_at),
});

export function knexClientBudgets(db: Db): ClientBudgetsRepository {
  return {
    async find(clientId) {
      const row: Row | undefined = await db('client_budgets').where({ client_id: clientId }).first();
      return row && budgetFromRow(row);
    },
    async save(b) {
      await db('client_budgets')
        .insert({
          client_id: b.clientId,
          monthly_soft_cap_usd: b.monthlySoftCapUsd,
          monthly_hard_cap_usd: b.monthlyHardCapUsd,
          pull_request_soft_cap_usd: b.pullRequestSoftCapUsd,
          pull_request_hard_cap_usd: b.pullRequestHardCapUsd,
          increment_soft_cap_usd: b.incrementSoftCapUsd,
          increment_hard_cap_usd: b.incrementHardCapUsd,
          period_started_at: b.periodStartedAt,
          updated_at: b.updatedAt,
        })
        .onConflict('client_id')
        .merge();
    },
  };
}

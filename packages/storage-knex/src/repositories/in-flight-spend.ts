import type { InFlightSpendRepository } from '@margin/core/spec';
import type { Db } from '../rows.js';

export function knexInFlightSpend(db: Db): InFlightSpendRepository {
  return {
    async adjust(key, delta, at) {
      await db('in_flight_spend')
        .insert({
          job_id: key.jobId,
          client_id: key.clientId,
          pull_request_key: key.pullRequestKey,
          reserved_micro_usd: delta.reservedMicroUsd,
          spent_micro_usd: delta.spentMicroUsd,
          updated_at: at,
        })
        .onConflict('job_id')
        .merge({
          reserved_micro_usd: db.raw('in_flight_spend.reserved_micro_usd + ?', [delta.reservedMicroUsd]),
          spent_micro_usd: db.raw('in_flight_spend.spent_micro_usd + ?', [delta.spentMicroUsd]),
          updated_at: at,
        });
    },
    async totals(clientId, pullRequestKey) {
      const row = await db('in_flight_spend')
        .where({ client_id: clientId })
        .select(
          db.raw('coalesce(sum(reserved_micro_usd + spent_micro_usd), 0) as client_micro'),
          db.raw(
            'coalesce(sum(case when pull_request_key = ? then reserved_micro_usd + spent_micro_usd else 0 end), 0) as pr_micro',
            [pullRequestKey],
          ),
        )
        .first();
      return { clientMicroUsd: Number(row?.client_micro ?? 0), pullRequestMicroUsd: Number(row?.pr_micro ?? 0) };
    },
    async remove(jobId) {
      await db('in_flight_spend').where({ job_id: jobId }).delete();
    },
  };
}

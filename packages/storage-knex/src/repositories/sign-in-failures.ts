import type { SignInFailureRecord, SignInFailuresRepository } from '@margin/core/spec';
import { readTime, readTimeOrNull } from '../dialect.js';
import type { Db, Row } from '../rows.js';

function signInFailureFromRow(row: Row): SignInFailureRecord {
  return {
    usernameKey: String(row.username_key),
    source: String(row.source),
    failures: Number(row.failures),
    lockouts: Number(row.lockouts),
    lockedUntil: readTimeOrNull(row.locked_until),
    lastFailureAt: readTime(row.last_failure_at),
  };
}

export function knexSignInFailures(db: Db): SignInFailuresRepository {
  const table = () => db('sign_in_failures');
  return {
    async find(usernameKey, sources) {
      if (sources.length === 0) return [];
      const rows = await table().where({ username_key: usernameKey }).whereIn('source', sources);
      return rows.map(signInFailureFromRow);
    },
    async put(r) {
      await table()
        .insert({
          username_key: r.usernameKey,
          source: r.source,
          failures: r.failures,
          lockouts: r.lockouts,
          locked_until: r.lockedUntil,
          last_failure_at: r.lastFailureAt,
        })
        .onConflict(['username_key', 'source'])
        .merge();
    },
    async clear(usernameKey, source) {
      const query = table().where({ username_key: usernameKey });
      if (source !== undefined) query.andWhere({ source });
      await query.delete();
    },
    async deleteStale(before, limit) {
      // Through sign_in_failures_last_failure, in a bounded batch.
      const stale = table().select('username_key', 'source').where('last_failure_at', '<', before).limit(limit);
      return table().whereIn(['username_key', 'source'], stale).delete();
    },
  };
}

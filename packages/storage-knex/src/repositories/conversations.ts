import type {
  ConversationOutcome,
  ConversationRecord,
  ConversationStatus,
  ConversationsRepository,
  ConversationUsage,
  MentionCommand,
  ScmUser,
} from '@margin/core/spec';
import {
  bindBool,
  claimRows,
  type Dialect,
  readBool,
  readJson,
  readJsonOrNull,
  readTime,
  readTimeOrNull,
  rowsOf,
  writeJson,
  writeJsonOrNull,
} from '../dialect.js';
import { keyset, keysetPage } from '../paging.js';
import type { Db, Row } from '../rows.js';
import { textOrNull } from '../rows.js';

const conversationFromRow = (row: Row, dialect: Dialect): ConversationRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  providerCommentKey: String(row.provider_comment_key),
  configurationId: String(row.configuration_id),
  originKind: String(row.origin_kind) as ConversationRecord['originKind'],
  organizationScopeId: String(row.organization_scope_id),
  providerScopePath: String(row.provider_scope_path),
  providerProjectKey: String(row.provider_project_key),
  repositoryId: String(row.repository_id),
  pullRequestId: Number(row.pull_request_id),
  providerThreadId: textOrNull(row.provider_thread_id),
  commentId: String(row.comment_id),
  author: readJson<ScmUser>(row.author, dialect),
  isReviewComment: readBool(row.is_review_comment),
  commentedAt: readTime(row.commented_at),
  command: textOrNull(row.command) as MentionCommand | null,
  question: textOrNull(row.question),
  answer: textOrNull(row.answer),
  outcome: textOrNull(row.outcome) as ConversationOutcome | null,
  jobId: textOrNull(row.job_id),
  usage: readJsonOrNull<ConversationUsage>(row.usage, dialect),
  status: String(row.status) as ConversationStatus,
  leaseOwner: textOrNull(row.lease_owner),
  leaseExpiresAt: readTimeOrNull(row.lease_expires_at),
  attempts: Number(row.attempts),
  createdAt: readTime(row.created_at),
  handledAt: readTimeOrNull(row.handled_at),
});

const COLUMNS = [
  'id',
  'client_id',
  'provider_comment_key',
  'configuration_id',
  'origin_kind',
  'organization_scope_id',
  'provider_scope_path',
  'provider_project_key',
  'repository_id',
  'pull_request_id',
  'provider_thread_id',
  'comment_id',
  'author',
  'is_review_comment',
  'commented_at',
  'command',
  'question',
  'answer',
  'outcome',
  'job_id',
  'usage',
  'status',
  'lease_owner',
  'lease_expires_at',
  'attempts',
  'created_at',
  'handled_at',
] as const;

function values(c: ConversationRecord, dialect: Dialect) {
  const row: Record<(typeof COLUMNS)[number], unknown> = {
    id: c.id,
    client_id: c.clientId,
    provider_comment_key: c.providerCommentKey,
    configuration_id: c.configurationId,
    origin_kind: c.originKind,
    organization_scope_id: c.organizationScopeId,
    provider_scope_path: c.providerScopePath,
    provider_project_key: c.providerProjectKey,
    repository_id: c.repositoryId,
    pull_request_id: c.pullRequestId,
    provider_thread_id: c.providerThreadId,
    comment_id: c.commentId,
    author: writeJson(c.author),
    is_review_comment: bindBool(c.isReviewComment, dialect),
    commented_at: c.commentedAt,
    command: c.command,
    question: c.question,
    answer: c.answer,
    outcome: c.outcome,
    job_id: c.jobId,
    usage: writeJsonOrNull(c.usage),
    status: c.status,
    lease_owner: c.leaseOwner,
    lease_expires_at: c.leaseExpiresAt,
    attempts: c.attempts,
    created_at: c.createdAt,
    handled_at: c.handledAt,
  };
  return COLUMNS.map((column) => row[column]) as Array<string | number | boolean | null>;
}

// `on conflict ... do nothing` on the unique key: the database says whether this insert won, without
// an error (which would abort a PostgreSQL transaction) and without a read before the write.
const INSERT = `insert into conversations (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(
  ', ',
)}) on conflict (client_id, provider_comment_key) do nothing returning id`;

const NEWEST = keyset<ConversationRecord>('created_at', 'desc', (c) => ({ key: c.createdAt, id: c.id }));

/** Inserts a conversation on `db` (a transaction's, when the caller records something with it). */
export async function insertConversation(
  db: Db,
  dialect: Dialect,
  record: ConversationRecord,
): Promise<'inserted' | 'duplicate'> {
  const result = await db.raw(INSERT, values(record, dialect));
  return rowsOf(result, dialect).length === 1 ? 'inserted' : 'duplicate';
}

export function knexConversations(db: Db, dialect: Dialect): ConversationsRepository {
  const table = () => db('conversations');
  return {
    insertIfAbsent: (record) => insertConversation(db, dialect, record),
    async findById(id) {
      const row = await table().where({ id }).first();
      return row ? conversationFromRow(row, dialect) : undefined;
    },
    async claimQueued({ owner, now, leaseMs, limit }) {
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      const rows = await claimRows(db, dialect, {
        table: 'conversations',
        pick: `select id from conversations
          where status = 'queued' or (status = 'handling' and lease_expires_at <= ?)
          order by created_at, id limit ?`,
        pickBindings: [now, limit],
        set: `status = 'handling', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1`,
        setBindings: [owner, leaseUntil],
      });
      return rows
        .map((r) => conversationFromRow(r, dialect))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },
    async finish(id, owner, f) {
      const n = await table()
        .where({ id, lease_owner: owner, status: 'handling' })
        .update({
          status: 'done',
          answer: f.answer,
          outcome: f.outcome,
          job_id: f.jobId,
          usage: writeJsonOrNull(f.usage),
          handled_at: f.handledAt,
          lease_owner: null,
          lease_expires_at: null,
        });
      return n === 1;
    },
    async list(clientId, filter, page) {
      let query = table().where({ client_id: clientId });
      if (filter.repositoryId !== undefined) {
        query = query.whereRaw('lower(repository_id) = ?', [filter.repositoryId.toLowerCase()]);
      }
      if (filter.pullRequestId !== undefined) query = query.where({ pull_request_id: filter.pullRequestId });
      return keysetPage(query, NEWEST, page, (row) => conversationFromRow(row, dialect));
    },
  };
}

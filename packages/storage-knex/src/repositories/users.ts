import { MarginError, type UserPatch, type UserRecord, type UsersRepository } from '@margin/core/spec';
import type { Knex } from 'knex';
import { readBool, readTime } from '../dialect.js';
import { byCreatedAt, keysetPage } from '../paging.js';
import { columnsOf, conflictOnDuplicate, lower, type Row, textOrNull, updateAndRead } from '../rows.js';

const COLUMNS: Record<keyof UserPatch, string> = {
  username: 'username',
  displayName: 'display_name',
  passwordHash: 'password_hash',
  email: 'email',
  globalRole: 'global_role',
  isActive: 'is_active',
  updatedAt: 'updated_at',
};

function toRow(patch: UserPatch): Row {
  const row = columnsOf(patch, COLUMNS);
  if (patch.username !== undefined) row.username_key = lower(patch.username);
  if (patch.email !== undefined) row.email_key = patch.email === null ? null : lower(patch.email);
  return row;
}

function fromRow(row: Row): UserRecord {
  return {
    id: String(row.id),
    username: String(row.username),
    displayName: String(row.display_name),
    passwordHash: textOrNull(row.password_hash),
    email: textOrNull(row.email),
    globalRole: row.global_role as UserRecord['globalRole'],
    isActive: readBool(row.is_active),
    createdAt: readTime(row.created_at),
    updatedAt: readTime(row.updated_at),
  };
}

/**
 * Which unique key a duplicate broke, told by the index's name (`users_email_key` on PostgreSQL,
 * `users.email_key` on SQLite; the statement text itself names every column, so match no more).
 */
const duplicate = (error: unknown) =>
  MarginError.conflict(
    /users[._]email_key/.test(String((error as Error | undefined)?.message))
      ? 'A user with this email already exists.'
      : 'A user with this username already exists.',
  );

export function knexUsers(db: Knex | Knex.Transaction): UsersRepository {
  const table = () => db('users');
  return {
    async insert(user) {
      await conflictOnDuplicate(table().insert({ id: user.id, created_at: user.createdAt, ...toRow(user) }), duplicate);
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && fromRow(row);
    },
    async findByUsername(username) {
      const row = await table()
        .where({ username_key: lower(username) })
        .first();
      return row && fromRow(row);
    },
    async findByEmail(email) {
      const row = await table()
        .where({ email_key: lower(email) })
        .first();
      return row && fromRow(row);
    },
    async findManyByIds(ids) {
      if (ids.length === 0) return [];
      return (await table().whereIn('id', [...ids])).map(fromRow);
    },
    async update(id, patch) {
      return updateAndRead(table, id, toRow(patch), fromRow, duplicate);
    },
    async list(page) {
      return keysetPage(table(), byCreatedAt(), page, fromRow);
    },
    async countActive(globalRole) {
      const row = await table().where({ global_role: globalRole, is_active: true }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
  };
}

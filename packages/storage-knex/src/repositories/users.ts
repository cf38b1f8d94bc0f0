import { decodeCursor, MarginError, toPage, type UserPatch, type UserRecord, type UsersRepository } from '@margin/core';
import type { Knex } from 'knex';
import { isUniqueViolation, readBool, readTime } from '../dialect.js';

type Row = Record<string, unknown>;

const COLUMNS: Record<keyof UserPatch, string> = {
  username: 'username',
  displayName: 'display_name',
  passwordHash: 'password_hash',
  globalRole: 'global_role',
  isActive: 'is_active',
  updatedAt: 'updated_at',
};

function toRow(patch: UserPatch): Row {
  const row: Row = {};
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = patch[field as keyof UserPatch];
    if (value !== undefined) row[column] = value;
  }
  if (patch.username !== undefined) row.username_key = patch.username.toLowerCase();
  return row;
}

function fromRow(row: Row): UserRecord {
  return {
    id: String(row.id),
    username: String(row.username),
    displayName: String(row.display_name),
    passwordHash: (row.password_hash as string | null) ?? null,
    globalRole: row.global_role as UserRecord['globalRole'],
    isActive: readBool(row.is_active),
    createdAt: readTime(row.created_at),
    updatedAt: readTime(row.updated_at),
  };
}

const duplicate = () => MarginError.conflict('A user with this username already exists.');

export function knexUsers(db: Knex | Knex.Transaction): UsersRepository {
  const table = () => db('users');
  return {
    async insert(user) {
      try {
        await table().insert({ id: user.id, created_at: user.createdAt, ...toRow(user) });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && fromRow(row);
    },
    async findByUsername(username) {
      const row = await table().where({ username_key: username.toLowerCase() }).first();
      return row && fromRow(row);
    },
    async findManyByIds(ids) {
      if (ids.length === 0) return [];
      return (await table().whereIn('id', [...ids])).map(fromRow);
    },
    async update(id, patch) {
      const row = toRow(patch);
      if (Object.keys(row).length > 0) {
        try {
          await table().where({ id }).update(row);
        } catch (error) {
          if (isUniqueViolation(error)) throw duplicate();
          throw error;
        }
      }
      const updated = await table().where({ id }).first();
      return updated && fromRow(updated);
    },
    async list(page) {
      const after = decodeCursor(page.cursor);
      const query = table()
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(page.limit + 1);
      if (after) {
        query.where((q) =>
          q
            .where('created_at', '>', after.key)
            .orWhere((q2) => q2.where('created_at', after.key).andWhere('id', '>', after.id)),
        );
      }
      const rows = (await query).map(fromRow);
      return toPage(rows, page.limit, (u) => ({ key: u.createdAt, id: u.id }));
    },
    async countActive(globalRole) {
      const row = await table().where({ global_role: globalRole, is_active: true }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
  };
}

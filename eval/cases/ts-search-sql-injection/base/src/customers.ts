import type { Db } from './db.js';

export async function customerById(db: Db, id: string) {
  const rows = await db.query('select id, name, email from customers where id = $1', [id]);
  return rows[0] ?? null;
}

// The baseline for webhook intake: the smallest Express handler that stores each posted delivery as
// one row in SQLite, one INSERT per request, with the durability Margin's default has (WAL,
// synchronous=FULL). Prints `ready <url> <path> - <database file>` like the Margin intake host.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';

const dir = mkdtempSync(join(tmpdir(), 'margin-bench-bare-'));
const file = join(dir, 'bare.db');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(
  'create table deliveries (id text primary key, delivery_id text not null, received_at text not null, body text not null)',
);
const insert = db.prepare('insert into deliveries (id, delivery_id, received_at, body) values (?, ?, ?, ?)');

const app = express();
app.post('/hook', express.text({ type: '*/*', limit: '1mb' }), (req, res) => {
  insert.run(randomUUID(), req.get('x-github-delivery') ?? '', new Date().toISOString(), req.body);
  res.status(202).json({ acknowledged: 'accepted' });
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log(`ready http://127.0.0.1:${server.address().port} /hook - ${file}`);
});
process.on('SIGTERM', () =>
  server.close(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }),
);

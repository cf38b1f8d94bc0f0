import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createTestDatabase, type TestDialect } from '@margin/storage-knex/testing';
import { loadConfig } from '../config.js';
import { type MarginHost, type MarginHostOptions, startMarginHost } from '../host/start-host.js';
import { cookiePair, TestApi } from './test-api.js';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'admin-password-for-tests';
export const TEST_USER_PASSWORD = 'user-password-for-tests';

export interface TestHost extends MarginHost {
  /** An anonymous client for `<url>/api`. */
  api: TestApi;
  /** Signs in and returns a client carrying the access token (and the refresh cookie). */
  login(username: string, password: string): Promise<TestApi>;
  /** The bootstrap platform administrator, signed in. */
  admin(): Promise<TestApi>;
  /** Creates a user through the API as the platform admin; returns its id and a signed-in client. */
  createUser(
    username: string,
    options?: { globalRole?: 'platformAdmin' | 'user' },
  ): Promise<{ id: string; api: TestApi }>;
  dataDir: string;
  databaseUrl: string;
  /** Every log line written so far, parsed. */
  logs(): Array<Record<string, unknown>>;
  /** Raw log text, for scanning for leaked secrets. */
  rawLogs(): string;
  announcements: string[];
  /** Stops the host; keeps the database and data dir so a restart sees the same state. */
  stop(): Promise<void>;
  /** Stops the host and removes its database and data dir. */
  close(): Promise<void>;
}

export interface TestHostOptions extends Partial<Omit<MarginHostOptions, 'config'>> {
  dialect?: TestDialect;
  env?: Record<string, string | undefined>;
  /** Reuse a previous host's data dir and database (restart tests). */
  reuse?: { dataDir: string; databaseUrl: string };
}

/** A real host on 127.0.0.1 with an OS-chosen port, on a fresh SQLite file or PostgreSQL schema. */
export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const dataDir = options.reuse?.dataDir ?? (await mkdtemp(join(tmpdir(), 'margin-host-')));
  const db = options.reuse ? undefined : await createTestDatabase(options.dialect ?? 'sqlite');
  const databaseUrl = options.reuse?.databaseUrl ?? db?.url;
  let raw = '';
  const destination = new Writable({
    write(chunk, _encoding, done) {
      raw += chunk.toString();
      done();
    },
  });
  const announcements: string[] = [];
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    MARGIN_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    MARGIN_BOOTSTRAP_ADMIN_USER: ADMIN_USERNAME,
    MARGIN_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_LEVEL: 'info',
    // Tests sign in far more often than people do; the rate-limit test sets its own limit.
    MARGIN_AUTH_RATELIMIT_PERMITS: '10000',
    // Parallel hosts would all reach for 8443; the TLS tests turn it on with a port of their own.
    MARGIN_TLS_PORT: 'off',
    ...options.env,
  });
  const host = await startMarginHost({
    ...options,
    config,
    logDestination: destination,
    announce: (m) => announcements.push(m),
  });
  const stop = () => host.close();
  const api = new TestApi(`${host.url}/api`);
  const login = async (username: string, password: string) => {
    const res = await api.post('/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login as ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return api.with({ bearer: res.body.accessToken, cookie: cookiePair(res.headers.get('set-cookie')) });
  };
  let adminApi: Promise<TestApi> | undefined;
  const admin = () => {
    adminApi ??= login(ADMIN_USERNAME, ADMIN_PASSWORD);
    return adminApi;
  };
  return {
    ...host,
    api,
    login,
    admin,
    async createUser(username, options = {}) {
      const res = await (await admin()).post('/admin/users', { username, password: TEST_USER_PASSWORD, ...options });
      if (res.status !== 201) throw new Error(`creating ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.id as string, api: await login(username, TEST_USER_PASSWORD) };
    },
    dataDir,
    databaseUrl: config.databaseUrl,
    announcements,
    logs: () =>
      raw
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    rawLogs: () => raw,
    stop,
    close: async () => {
      await stop();
      await db?.drop();
      if (!options.reuse) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verifyPassword } from '@margin/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/index.js';

const hosts: TestHost[] = [];
async function start(options: Parameters<typeof startTestHost>[0] = {}) {
  const host = await startTestHost(options);
  hosts.push(host);
  return host;
}
afterEach(async () => {
  for (const host of hosts.reverse()) await host.close();
  hosts.length = 0;
});

describe('starting the host', () => {
  it('seeds the bootstrap admin from the environment without announcing anything', async () => {
    const host = await start({
      env: { MARGIN_BOOTSTRAP_ADMIN_USER: 'root', MARGIN_BOOTSTRAP_ADMIN_PASSWORD: 'correct horse' },
    });
    const admin = await host.storage.users.findByUsername('root');
    expect(admin).toMatchObject({ globalRole: 'platformAdmin', isActive: true });
    expect(await verifyPassword(admin?.passwordHash ?? '', 'correct horse')).toBe(true);
    expect(host.announcements).toEqual([]);
  });

  it('generates the admin password when none is configured, prints it once and never logs it', async () => {
    const first = await start({ env: { MARGIN_BOOTSTRAP_ADMIN_PASSWORD: '' } });
    expect(first.announcements).toHaveLength(1);
    const password = /password: (\S+)/.exec(first.announcements[0] ?? '')?.[1] ?? '';
    expect(password).toMatch(/^[0-9a-f]{24}$/);
    const admin = await first.storage.users.findByUsername('admin');
    expect(await verifyPassword(admin?.passwordHash ?? '', password)).toBe(true);
    expect(first.rawLogs()).not.toContain(password);
    await first.stop();

    const again = await start({
      env: { MARGIN_BOOTSTRAP_ADMIN_PASSWORD: '' },
      reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
    });
    expect(again.announcements).toEqual([]);
  });

  it('keeps the generated JWT secret and secrets key in the data dir, readable only by the owner', async () => {
    const first = await start();
    const jwtPath = join(first.dataDir, 'jwt-secret');
    const keyPath = join(first.dataDir, 'secrets.key');
    const [jwt, key] = [await readFile(jwtPath, 'utf8'), await readFile(keyPath, 'utf8')];
    expect(jwt.trim().length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(key.trim(), 'base64')).toHaveLength(32);
    expect((await stat(jwtPath)).mode & 0o777).toBe(0o600);
    expect((await stat(keyPath)).mode & 0o777).toBe(0o600);
    await first.stop();

    const again = await start({ reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } });
    expect(await readFile(jwtPath, 'utf8')).toBe(jwt);
    expect(await readFile(keyPath, 'utf8')).toBe(key);
    expect((await fetch(`${again.url}/api/healthz`)).status).toBe(200);
  });

  it('refuses to start with a secrets key other than the one the database was written with', async () => {
    const first = await start();
    await first.stop();
    await writeFile(join(first.dataDir, 'secrets.key'), `${Buffer.alloc(32, 7).toString('base64')}\n`);
    await expect(startTestHost({ reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } })).rejects.toThrow(
      /secrets key does not match/,
    );
  });

  it('stops cleanly: the port is released and health turns unhealthy before it closes', async () => {
    const host = await start();
    const url = host.url;
    await host.stop();
    await expect(fetch(`${url}/api/livez`)).rejects.toThrow();
  });
});

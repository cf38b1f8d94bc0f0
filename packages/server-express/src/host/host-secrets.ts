import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostConfig } from '../config.js';

export interface HostSecrets {
  jwtSecret: string;
  secretsKey: Buffer;
}

/**
 * The JWT signing secret and the credentials key: from the environment when set, otherwise generated
 * once and kept in the data dir (mode 0600). Several hosts on one database must share both, so set
 * them in the environment there.
 */
export async function loadHostSecrets(config: HostConfig): Promise<HostSecrets> {
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const jwtSecret =
    config.jwtSecret ??
    (await keptFile(join(config.dataDir, 'jwt-secret'), () => randomBytes(48).toString('base64url')));
  const secretsKey = Buffer.from(
    config.secretsKey ??
      (await keptFile(join(config.dataDir, 'secrets.key'), () => randomBytes(32).toString('base64'))),
    'base64',
  );
  return { jwtSecret, secretsKey };
}

async function keptFile(path: string, generate: () => string): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = generate();
  try {
    // `wx`: if another process created it first, keep theirs.
    await writeFile(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(path, 'utf8')).trim();
    throw error;
  }
}

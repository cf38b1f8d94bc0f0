import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
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

/** GET over HTTPS trusting only `ca` (or the public roots); answers the status or the TLS error's code. */
function httpsStatus(url: string, ca?: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, ca ? { ca } : {}, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

// Port 0: parallel test hosts must never contend for 8443.
const TLS_ON = { MARGIN_TLS_PORT: '0' };

describe('HTTPS on the stock host', () => {
  it('generates a self-signed certificate into the data dir on first start and prints its fingerprint', async () => {
    const host = await start({ env: { ...TLS_ON, MARGIN_PUBLIC_BASE_URL: 'https://margin.example.test' } });
    const https = host.https;
    if (!https) throw new Error('HTTPS is not serving');
    expect(https.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

    const certFile = join(host.dataDir, 'tls', 'margin-tls-cert.pem');
    const cert = new X509Certificate(await readFile(certFile, 'utf8'));
    expect(cert.subjectAltName).toBe(
      'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:margin.example.test',
    );
    expect(cert.fingerprint256).toBe(https.fingerprint256);
    expect((await stat(join(host.dataDir, 'tls', 'margin-tls-key.pem'))).mode & 0o077).toBe(0);
    expect(host.announcements.join('\n')).toContain(`SHA-256: ${https.fingerprint256}`);
    expect(host.logs()).toContainEqual(
      expect.objectContaining({ msg: 'margin is listening on HTTPS', url: https.url, sha256: https.fingerprint256 }),
    );

    expect(await httpsStatus(`${https.url}/api/healthz`, https.certificate)).toBe(200);
    // Without the certificate as a trust anchor the client refuses the server: nothing skips verification.
    expect(await httpsStatus(`${https.url}/api/healthz`)).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
  });

  it('keeps its certificate across restarts, and makes a new one when the public host changes', async () => {
    const first = await start({ env: TLS_ON });
    const fingerprint = first.https?.fingerprint256;
    await first.stop();
    const again = await start({ env: TLS_ON, reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } });
    expect(again.https?.fingerprint256).toBe(fingerprint);
    expect(again.announcements.join('\n')).not.toContain('SHA-256');
    await again.stop();
    const moved = await start({
      env: { ...TLS_ON, MARGIN_PUBLIC_BASE_URL: 'https://10.1.2.3:9443' },
      reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
    });
    expect(moved.https?.fingerprint256).not.toBe(fingerprint);
    expect(new X509Certificate(moved.https?.certificate ?? '').checkIP('10.1.2.3')).toBe('10.1.2.3');
  });

  it('serves the operator’s own certificate and key from files', async () => {
    const donor = await start({ env: TLS_ON });
    const dir = join(donor.dataDir, 'own');
    await mkdir(dir);
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    await writeFile(certFile, await readFile(join(donor.dataDir, 'tls', 'margin-tls-cert.pem')));
    await writeFile(keyFile, await readFile(join(donor.dataDir, 'tls', 'margin-tls-key.pem')));

    const host = await start({ env: { ...TLS_ON, MARGIN_TLS_CERT_FILE: certFile, MARGIN_TLS_KEY_FILE: keyFile } });
    expect(host.https?.fingerprint256).toBe(donor.https?.fingerprint256);
    expect(host.announcements.join('\n')).not.toContain('SHA-256');
    expect(await httpsStatus(`${host.https?.url}/api/healthz`, await readFile(certFile, 'utf8'))).toBe(200);
  });

  it('refuses to start with an unreadable certificate file, naming the variable', async () => {
    await expect(
      start({
        env: { ...TLS_ON, MARGIN_TLS_CERT_FILE: '/nonexistent/cert.pem', MARGIN_TLS_KEY_FILE: '/nonexistent/key.pem' },
      }),
    ).rejects.toThrow('MARGIN_TLS_CERT_FILE cannot be read (ENOENT)');
  });

  it('warns and keeps serving HTTP when the TLS port is taken (two hosts on one machine)', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    try {
      const port = (squatter.address() as { port: number }).port;
      const host = await start({ env: { MARGIN_TLS_PORT: String(port) } });
      expect(host.https).toBeUndefined();
      expect(host.logs()).toContainEqual(expect.objectContaining({ level: 40, port, code: 'EADDRINUSE' }));
      expect((await host.api.get('/healthz')).status).toBe(200);
    } finally {
      squatter.close();
    }
  });

  it('serves no HTTPS and generates nothing with MARGIN_TLS_PORT=off', async () => {
    const host = await start({ env: { MARGIN_TLS_PORT: 'off' } });
    expect(host.https).toBeUndefined();
    await expect(stat(join(host.dataDir, 'tls'))).rejects.toThrow();
  });
});

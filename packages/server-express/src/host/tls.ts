import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { MarginError } from '@margin/core';
import { generate } from 'selfsigned';
import type { HostConfig } from '../config.js';
import type { Logger } from '../observability/logger.js';

/** The certificate the HTTPS listener serves, and where it came from. */
export interface TlsMaterial {
  cert: string;
  key: string;
  /** `AB:CD:…`, as browsers and `openssl x509 -fingerprint -sha256` show it. */
  fingerprint256: string;
  certFile: string;
  /** True when this start generated it (first start, or a new public host name). */
  generated: boolean;
}

const GENERATED_CERT = 'margin-tls-cert.pem';
const GENERATED_KEY = 'margin-tls-key.pem';
// About two years: long enough not to surprise an operator, short enough for clients that cap validity.
const VALIDITY_DAYS = 825;

/** The names a generated certificate covers: loopback, and the host of `MARGIN_PUBLIC_BASE_URL`. */
export function certificateNames(publicBaseUrl: string | undefined): string[] {
  const names = ['localhost', '127.0.0.1', '::1'];
  if (publicBaseUrl) {
    const host = new URL(publicBaseUrl).hostname.replace(/^\[(.*)\]$/, '$1');
    if (!names.includes(host)) names.push(host);
  }
  return names;
}

const covers = (cert: X509Certificate, name: string) =>
  isIP(name) ? cert.checkIP(name) !== undefined : cert.checkHost(name) !== undefined;

/**
 * The operator's certificate and key (`MARGIN_TLS_CERT_FILE`/`MARGIN_TLS_KEY_FILE`), or the
 * self-signed pair kept in the data dir: generated on first start, and again only when it no longer
 * covers the configured names (the public base URL moved to another host).
 */
export async function loadTlsMaterial(config: HostConfig): Promise<TlsMaterial> {
  const tls = config.tls;
  if (!tls) throw new Error('TLS is off.');
  if (tls.certFile && tls.keyFile) {
    const [cert, key] = await Promise.all([
      readPem(tls.certFile, 'MARGIN_TLS_CERT_FILE'),
      readPem(tls.keyFile, 'MARGIN_TLS_KEY_FILE'),
    ]);
    return {
      cert,
      key,
      fingerprint256: parseCertificate(cert, 'MARGIN_TLS_CERT_FILE').fingerprint256,
      certFile: tls.certFile,
      generated: false,
    };
  }
  const dir = join(config.dataDir, 'tls');
  const certFile = join(dir, GENERATED_CERT);
  const keyFile = join(dir, GENERATED_KEY);
  const names = certificateNames(config.publicBaseUrl);
  const stored = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]).catch(() => undefined);
  if (stored) {
    const [cert, key] = stored;
    const parsed = parseCertificate(cert, certFile);
    if (names.every((name) => covers(parsed, name))) {
      return { cert, key, fingerprint256: parsed.fingerprint256, certFile, generated: false };
    }
  }
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: names.at(-1) ?? 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + VALIDITY_DAYS * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: names.map((name) => (isIP(name) ? { type: 7, ip: name } : { type: 2, value: name })),
      },
    ],
  });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(keyFile, pems.private, { mode: 0o600 });
  await writeFile(certFile, pems.cert, { mode: 0o644 });
  const fingerprint256 = parseCertificate(pems.cert, certFile).fingerprint256;
  return { cert: pems.cert, key: pems.private, fingerprint256, certFile, generated: true };
}

async function readPem(file: string, variable: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw MarginError.validation(`Invalid configuration: ${variable} cannot be read (${code}).`);
  }
}

function parseCertificate(pem: string, source: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw MarginError.validation(`Invalid configuration: ${source} is not a PEM certificate.`);
  }
}

/**
 * Listens for HTTPS with the same request handler as HTTP. A port that cannot be taken (another
 * host on the machine has it) is a warning: HTTP keeps serving and the host starts all the same.
 */
export async function listenHttps(
  handler: RequestListener,
  config: HostConfig,
  material: TlsMaterial,
  logger: Logger,
): Promise<Server | undefined> {
  const port = config.tls?.port ?? 0;
  const server = createServer({ cert: material.cert, key: material.key }, handler);
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, config.host, () => resolve());
    });
    return server;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    logger.warn(
      { port, host: config.host, code },
      code === 'EADDRINUSE'
        ? 'the HTTPS port is already in use; serving HTTP only (set MARGIN_TLS_PORT to another port, or off)'
        : 'HTTPS could not listen; serving HTTP only',
    );
    return undefined;
  }
}

import { loadCliEnvironment } from '@margin/cli';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      bootstrapAdmin: { username: 'admin', password: undefined },
      allowPrivateEgress: false,
      callTimeouts: { aiMs: 120_000, scmMs: 30_000 },
      worker: { enabled: true, maxConcurrentJobs: 4, pollIntervalMs: 2000, leaseMs: 120_000, usageRetentionDays: 400 },
      triggers: {
        deliveryPollIntervalMs: 2000,
        deliveryLeaseMs: 120_000,
        crawlPollIntervalMs: 5000,
        crawlLeaseMs: 300_000,
      },
      authRateLimit: { permits: 20, windowSeconds: 60 },
      development: false,
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.databaseUrl).toBe(`sqlite:${config.dataDir}/margin.db`);
  });

  it('names the variable in every error and never echoes a secret value', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', MARGIN_JWT_SECRET: 'too-short-secret', WORKER_MAX_CONCURRENT_REVIEW_JOBS: '0' });
    expect(attempt).toThrow(/PORT must be a whole number from 0 to 65535/);
    expect(attempt).toThrow(/MARGIN_JWT_SECRET must be at least 32 characters/);
    expect(attempt).toThrow(/WORKER_MAX_CONCURRENT_REVIEW_JOBS must be a whole number from 1 to 64/);
    expect(attempt).not.toThrow(/too-short-secret/);
  });

  it('accepts a base64 32-byte secrets key and refuses anything else', () => {
    expect(loadConfig({ MARGIN_SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') }).secretsKey).toBeDefined();
    expect(() => loadConfig({ MARGIN_SECRETS_KEY: Buffer.alloc(16, 1).toString('base64') })).toThrow(
      /MARGIN_SECRETS_KEY/,
    );
  });

  it('reads the public base URL without a trailing slash and flags as booleans', () => {
    const config = loadConfig({
      MARGIN_PUBLIC_BASE_URL: 'https://margin.example.com/',
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      NODE_ENV: 'development',
    });
    expect(config.publicBaseUrl).toBe('https://margin.example.com');
    expect(config.allowPrivateEgress).toBe(true);
    expect(config.development).toBe(true);
    expect(() => loadConfig({ MARGIN_PUBLIC_BASE_URL: 'ftp://x' })).toThrow(/MARGIN_PUBLIC_BASE_URL/);
  });

  it('sets review statuses on the provider unless MARGIN_PROVIDER_STATUS is false', () => {
    expect(loadConfig({}).providerStatus).toBe(true);
    expect(loadConfig({ MARGIN_PROVIDER_STATUS: 'false' }).providerStatus).toBe(false);
    expect(loadConfig({ MARGIN_PROVIDER_STATUS: '0' }).providerStatus).toBe(false);
    expect(() => loadConfig({ MARGIN_PROVIDER_STATUS: 'no' })).toThrow(/MARGIN_PROVIDER_STATUS/);
  });

  it('reads the deadlines of calls to models and source control in seconds, for the host and the CLI alike', () => {
    const env = { MARGIN_AI_TIMEOUT_SECONDS: '600', MARGIN_SCM_TIMEOUT_SECONDS: '5' };
    expect(loadConfig(env).callTimeouts).toEqual({ aiMs: 600_000, scmMs: 5_000 });
    expect(loadCliEnvironment(env).callTimeouts).toEqual({ aiMs: 600_000, scmMs: 5_000 });
    expect(loadCliEnvironment({}).callTimeouts).toEqual({ aiMs: 120_000, scmMs: 30_000 });
    for (const bad of ['0', '1.5', '3601', 'soon']) {
      expect(() => loadConfig({ MARGIN_SCM_TIMEOUT_SECONDS: bad }), bad).toThrow(
        'Invalid configuration: MARGIN_SCM_TIMEOUT_SECONDS must be a whole number from 1 to 3600.',
      );
    }
  });

  it('reads the spend caps per review in US dollars, none by default, and refuses a bad or inverted pair', () => {
    expect(loadConfig({}).review.spendCaps).toEqual({ softUsd: undefined, hardUsd: undefined });
    expect(
      loadConfig({ MARGIN_REVIEW_SOFT_CAP_USD: '0.50', MARGIN_REVIEW_HARD_CAP_USD: ' 2 ' }).review.spendCaps,
    ).toEqual({ softUsd: 0.5, hardUsd: 2 });
    expect(loadConfig({ MARGIN_REVIEW_HARD_CAP_USD: '1.25' }).review.spendCaps).toEqual({
      softUsd: undefined,
      hardUsd: 1.25,
    });
    for (const bad of ['0', '-1', 'two', '1e3', '$2', 'Infinity']) {
      expect(() => loadConfig({ MARGIN_REVIEW_HARD_CAP_USD: bad }), bad).toThrow(
        'Invalid configuration: MARGIN_REVIEW_HARD_CAP_USD must be a positive amount of US dollars, such as 2.50.',
      );
    }
    expect(() => loadConfig({ MARGIN_REVIEW_SOFT_CAP_USD: '3', MARGIN_REVIEW_HARD_CAP_USD: '2' })).toThrow(
      'Invalid configuration: MARGIN_REVIEW_SOFT_CAP_USD must not exceed MARGIN_REVIEW_HARD_CAP_USD.',
    );
  });

  it('serves HTTPS on 8443 with a generated certificate by default, on another port, with own files, or not at all', () => {
    expect(loadConfig({}).tls).toEqual({ port: 8443, certFile: undefined, keyFile: undefined });
    expect(loadConfig({ MARGIN_TLS_PORT: 'off' }).tls).toBeUndefined();
    expect(loadConfig({ MARGIN_TLS_PORT: '0' }).tls?.port).toBe(0);
    expect(
      loadConfig({ MARGIN_TLS_CERT_FILE: '/etc/margin/cert.pem', MARGIN_TLS_KEY_FILE: '/etc/margin/key.pem' }).tls,
    ).toEqual({
      port: 8443,
      certFile: '/etc/margin/cert.pem',
      keyFile: '/etc/margin/key.pem',
    });
    expect(() => loadConfig({ MARGIN_TLS_PORT: 'yes' })).toThrow(
      'MARGIN_TLS_PORT must be a port number (0–65535) or off',
    );
    expect(() => loadConfig({ MARGIN_TLS_PORT: '70000' })).toThrow('MARGIN_TLS_PORT must be a port number');
    expect(() => loadConfig({ MARGIN_TLS_CERT_FILE: '/etc/margin/cert.pem' })).toThrow(
      'MARGIN_TLS_KEY_FILE must be set too',
    );
  });

  it('trusts no proxy unless MARGIN_TRUST_PROXY names them, and refuses what Express would misread', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ MARGIN_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ MARGIN_TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1']) {
      expect(() => loadConfig({ MARGIN_TRUST_PROXY: bad }), bad).toThrow(/MARGIN_TRUST_PROXY/);
    }
    expect(() => loadConfig({ MARGIN_METRICS_TOKEN: 'short' })).toThrow(/MARGIN_METRICS_TOKEN must be at least 16/);
    expect(loadConfig({ NODE_ENV: 'Development' }).development).toBe(true);
  });
});

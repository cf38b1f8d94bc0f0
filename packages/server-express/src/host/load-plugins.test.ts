import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/index.js';

/** A plugin as a package would ship it: a module whose default export makes the plugin. */
const ECHO_PLUGIN = `
export default () => ({
  name: 'echo-plugin',
  ai: () => [{
    specificationVersion: 'v1',
    kind: 'kindEcho',
    displayName: 'Echo',
    protocols: [{ mode: 'echoChat', operation: 'chat' }],
    supportsDiscovery: false,
    requiresApiKey: false,
    probe: async () => ({ status: 'succeeded', summary: 'Echo answered.', warnings: [] }),
    discoverModels: async () => ({ discoveryStatus: 'succeeded', manualEntryAllowed: true, warnings: [], models: [] }),
    createModel() { throw new Error('not used here'); },
  }],
});
`;

let dir: string;
let host: TestHost;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'margin-plugins-'));
  await writeFile(join(dir, 'echo-plugin.mjs'), ECHO_PLUGIN);
  await writeFile(join(dir, 'not-a-plugin.mjs'), 'export const answer = 42;\n');
  host = await startTestHost({ env: { MARGIN_PLUGINS: join(dir, 'echo-plugin.mjs') } });
});

afterAll(async () => {
  await host?.close();
});

describe('MARGIN_PLUGINS', () => {
  it('registers the plugins it names: their kinds are offered and checked by what they declare', async () => {
    const admin = await host.admin();
    const clientId = (await admin.post('/clients', { displayName: 'Plugins', tenantId: SYSTEM_TENANT_ID })).body
      .id as string;
    const permitted = await admin.get(`/clients/${clientId}/ai-connections/permitted-providers`);
    expect(permitted.body.providers).toHaveLength(8);
    expect(permitted.body.providers).toContainEqual({
      providerKind: 'kindEcho',
      isPermitted: true,
      protocolModes: ['auto', 'echoChat'],
    });
    // No default endpoint declared: baseUrl is required. No key required: an empty one is fine.
    const body = {
      displayName: 'Echo',
      providerKind: 'kindEcho',
      auth: { mode: 'apiKey', apiKey: '' },
      configuredModels: [{ remoteModelId: 'echo-1', operationKinds: ['chat'] }],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'echo-1', protocolMode: 'echoChat' }],
    };
    const noUrl = await admin.post(`/clients/${clientId}/ai-connections`, body);
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.details).toEqual([{ path: 'baseUrl', message: 'baseUrl is required for kindEcho.' }]);
    const saved = await admin.post(`/clients/${clientId}/ai-connections`, {
      ...body,
      baseUrl: 'https://echo.example.com',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.configuredModels[0].supportedProtocolModes).toEqual(['auto', 'echoChat']);
    expect(host.logs().some((l) => l.msg === 'provider plugin registered' && l.plugin === 'echo-plugin')).toBe(true);
  });

  it('stops the start with one line naming an entry that is not a plugin, or cannot be loaded', async () => {
    await expect(startTestHost({ env: { MARGIN_PLUGINS: join(dir, 'not-a-plugin.mjs') } })).rejects.toThrow(
      /^Invalid configuration: MARGIN_PLUGINS entry '.*not-a-plugin\.mjs' exports no Margin plugin/,
    );
    await expect(startTestHost({ env: { MARGIN_PLUGINS: '@acme/margin-nowhere' } })).rejects.toThrow(
      /^Invalid configuration: MARGIN_PLUGINS entry '@acme\/margin-nowhere' could not be loaded/,
    );
  });
});

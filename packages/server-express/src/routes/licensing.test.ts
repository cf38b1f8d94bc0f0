import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/index.js';

describe('licensing', () => {
  const hosts: TestHost[] = [];
  const start = async (options: Parameters<typeof startTestHost>[0] = {}) => {
    const host = await startTestHost(options);
    hosts.push(host);
    return host;
  };
  afterEach(async () => {
    for (const host of hosts.reverse()) await host.close();
    hosts.length = 0;
  });

  it('starts Community with every capability unavailable, each saying a license is required', async () => {
    const host = await start();
    const res = await (await host.admin()).get('/admin/licensing');
    expect(res.body.edition).toBe('Community');
    expect(res.body.activatedAt).toBeNull();
    expect(res.body.capabilities.map((c: { capability: string }) => c.capability)).toEqual([
      'sso-authentication',
      'parallel-review-execution',
      'multiple-scm-providers',
      'crawl-configs',
      'budgeting',
    ]);
    for (const c of res.body.capabilities) {
      expect(c).toMatchObject({ requiresCommercial: true, overrideState: 'default', isAvailable: false });
      expect(c.message).toContain('needs a Commercial license');
    }
  });

  it('switches edition case-insensitively, applies overrides (by capability or key) and keeps it across restarts', async () => {
    const host = await start();
    const admin = await host.admin();
    const commercial = await admin.patch('/admin/licensing', {
      edition: 'commercial',
      capabilityOverrides: [{ key: 'crawl-configs', overrideState: 'disabled' }],
    });
    expect(commercial.status).toBe(200);
    expect(commercial.body.edition).toBe('Commercial');
    expect(commercial.body.activatedAt).toEqual(expect.any(String));
    const crawl = commercial.body.capabilities.find((c: { capability: string }) => c.capability === 'crawl-configs');
    expect(crawl).toMatchObject({ overrideState: 'disabled', isAvailable: false });
    expect(crawl.message).toContain('switched off by an administrator override');
    expect(commercial.body.capabilities.filter((c: { isAvailable: boolean }) => c.isAvailable)).toHaveLength(4);

    await host.stop();
    const again = await start({ reuse: { dataDir: host.dataDir, databaseUrl: host.databaseUrl } });
    const after = await (await again.admin()).get('/admin/licensing');
    expect(after.body.edition).toBe('Commercial');
    const reset = await (await again.admin()).patch('/admin/licensing', {
      edition: 'Commercial',
      capabilityOverrides: [{ capability: 'crawl-configs', overrideState: 'default' }],
    });
    expect(reset.body.capabilities.every((c: { isAvailable: boolean }) => c.isAvailable)).toBe(true);
  });

  it('refuses an unknown capability (400) and enabling one while Community (409 license_required)', async () => {
    const admin = await (await start()).admin();
    const unknown = await admin.patch('/admin/licensing', {
      edition: 'Community',
      capabilityOverrides: [{ capability: 'teleportation', overrideState: 'enabled' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("Unknown capability 'teleportation'.");
    const enable = await admin.patch('/admin/licensing', {
      edition: 'Community',
      capabilityOverrides: [{ capability: 'budgeting', overrideState: 'enabled' }],
    });
    expect(enable.status).toBe(409);
    expect(enable.body).toMatchObject({ code: 'license_required', capability: 'budgeting' });
    expect((await admin.patch('/admin/licensing', {})).status).toBe(400);
    expect((await admin.patch('/admin/licensing', { edition: 'Enterprise' })).status).toBe(400);
  });

  it('drops to Community whatever overrides are enabled, keeping them stored without effect until Commercial returns', async () => {
    const admin = await (await start()).admin();
    const commercial = await admin.patch('/admin/licensing', {
      edition: 'Commercial',
      capabilityOverrides: [
        { capability: 'crawl-configs', overrideState: 'enabled' },
        { capability: 'budgeting', overrideState: 'disabled' },
      ],
    });
    expect(commercial.status).toBe(200);
    const community = await admin.patch('/admin/licensing', { edition: 'Community' });
    expect(community.status).toBe(200);
    expect(community.body.edition).toBe('Community');
    const state = (key: string) =>
      community.body.capabilities.find((c: { capability: string }) => c.capability === key);
    // Kept, shown, and of no effect: every capability is unavailable in Community.
    expect(state('crawl-configs')).toMatchObject({ overrideState: 'enabled', isAvailable: false });
    expect(state('crawl-configs').message).toContain('needs a Commercial license');
    expect(state('budgeting')).toMatchObject({ overrideState: 'disabled', isAvailable: false });
    const back = await admin.patch('/admin/licensing', { edition: 'Commercial' });
    expect(back.body.capabilities.find((c: { capability: string }) => c.capability === 'budgeting')).toMatchObject({
      overrideState: 'disabled',
      isAvailable: false,
    });
  });

  it("accepts the console's drop to Community (every current override sent back) and refuses only newly enabling one", async () => {
    const admin = await (await start()).admin();
    const commercial = await admin.patch('/admin/licensing', {
      edition: 'Commercial',
      capabilityOverrides: [
        { capability: 'crawl-configs', overrideState: 'enabled' },
        { capability: 'budgeting', overrideState: 'disabled' },
      ],
    });
    expect(commercial.status).toBe(200);
    type State = { capability: string; overrideState: string; isAvailable: boolean; message: string };
    // What packages/console/src/pages/licensing.tsx sends: the edition and every capability's override as shown.
    const consoleSave = (capabilities: State[], edition: string, changes: Record<string, string> = {}) =>
      admin.patch('/admin/licensing', {
        edition,
        capabilityOverrides: capabilities.map((c) => ({
          capability: c.capability,
          overrideState: changes[c.capability] ?? c.overrideState,
        })),
      });
    const shown = (await admin.get('/admin/licensing')).body.capabilities as State[];
    expect(shown.find((c) => c.capability === 'crawl-configs')).toMatchObject({ overrideState: 'enabled' });

    const dropped = await consoleSave(shown, 'Community');
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
    expect(dropped.body.edition).toBe('Community');
    const after = (await admin.get('/admin/licensing')).body;
    const state = (key: string) => after.capabilities.find((c: State) => c.capability === key) as State;
    expect(after.edition).toBe('Community');
    // Kept, and of no effect while Community.
    expect(state('crawl-configs')).toMatchObject({ overrideState: 'enabled', isAvailable: false });
    expect(state('crawl-configs').message).toContain('needs a Commercial license');
    expect(state('budgeting')).toMatchObject({ overrideState: 'disabled', isAvailable: false });
    expect(after.capabilities.every((c: State) => !c.isAvailable)).toBe(true);

    // Saving the same page again in Community changes nothing and is accepted too.
    expect((await consoleSave(after.capabilities, 'Community')).status).toBe(200);

    // Newly enabling one while Community is refused, from default or from disabled, and nothing is written.
    for (const capability of ['sso-authentication', 'budgeting']) {
      const enable = await consoleSave(after.capabilities, 'Community', { [capability]: 'enabled' });
      expect(enable.status, capability).toBe(409);
      expect(enable.body).toMatchObject({ code: 'license_required', capability });
    }
    expect((await admin.get('/admin/licensing')).body).toEqual(after);

    // Back to Commercial, the kept override takes effect again.
    const back = await consoleSave(after.capabilities, 'Commercial');
    expect(back.body.capabilities.find((c: State) => c.capability === 'crawl-configs')).toMatchObject({
      overrideState: 'enabled',
      isAvailable: true,
    });
  });

  it('is never taken from the environment', async () => {
    const host = await start({ env: { MARGIN_EDITION: 'Commercial', EDITION: 'Commercial' } });
    expect((await (await host.admin()).get('/admin/licensing')).body.edition).toBe('Community');
  });
});

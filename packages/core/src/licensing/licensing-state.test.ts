import { describe, expect, it } from 'vitest';
import { MarginError } from '../kernel/index.js';
import { createMemoryStorage } from '../storage/index.js';
import { capabilityState, requireCapability, writeLicensing } from './licensing-state.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

describe('requireCapability', () => {
  it('refuses in Community with a 409 naming the capability and that a license is required', async () => {
    const storage = createMemoryStorage();
    const error = await requireCapability({ storage }, 'crawl-configs').catch((e: unknown) => e);
    expect(MarginError.isInstance(error) && error.status).toBe(409);
    expect(MarginError.isInstance(error) && error.toBody()).toEqual({
      error: 'Scheduled crawling of pull requests needs a Commercial license (crawl-configs).',
      code: 'license_required',
      capability: 'crawl-configs',
    });
  });

  it('passes in Commercial unless an override switches the capability off', async () => {
    const storage = createMemoryStorage();
    await writeLicensing(
      { storage, clock },
      { edition: 'Commercial', activatedAt: null, overrides: { budgeting: 'disabled' } },
    );
    await expect(requireCapability({ storage }, 'crawl-configs')).resolves.toBeUndefined();
    await expect(requireCapability({ storage }, 'budgeting')).rejects.toThrow(
      'switched off by an administrator override',
    );
  });

  it('keeps overrides but ignores them for availability in Community', () => {
    const state = capabilityState(
      { edition: 'Community', activatedAt: null, overrides: { budgeting: 'disabled' } },
      'budgeting',
    );
    expect(state).toMatchObject({ overrideState: 'disabled', isAvailable: false });
  });
});

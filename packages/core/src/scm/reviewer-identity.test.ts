import { beforeEach, describe, expect, it } from 'vitest';
import {
  connectionBody,
  issuesOf,
  PLATFORM_ADMIN,
  refusalOf,
  SCM_HOST,
  SCM_SCOPE_PATH,
  startUseCases,
  type UseCaseHarness,
} from '../use-case-harness.js';

let h: UseCaseHarness;
let clientId: string;
let connectionId: string;
const resolve = (query: Record<string, unknown>) =>
  h.core.scm.resolveReviewerIdentities(PLATFORM_ADMIN, clientId, connectionId, query);
const put = (body: Record<string, unknown>) =>
  h.core.scm.putReviewerIdentity(PLATFORM_ADMIN, clientId, connectionId, body);
const get = () => h.core.scm.getReviewerIdentity(PLATFORM_ADMIN, clientId, connectionId);

beforeEach(async () => {
  h = await startUseCases();
  clientId = await h.newClient();
  connectionId = (await h.core.scm.createProviderConnection(PLATFORM_ADMIN, clientId, connectionBody())).id;
});

describe('resolving reviewer identities', () => {
  it('answers the provider’s users matching the search, searched in the first enabled scope', async () => {
    const scopes = async (scopePath: string, isEnabled: boolean) =>
      h.core.scm.createProviderScope(PLATFORM_ADMIN, clientId, connectionId, {
        scopeType: 'organization',
        scopePath,
        isEnabled,
      });
    await scopes(`${SCM_HOST}/ghost`, false);
    await scopes(SCM_SCOPE_PATH, true);
    expect(await resolve({ search: 'ad' })).toEqual({
      items: [{ externalUserId: '7', login: 'ada', displayName: 'Ada Lovelace', isBot: false }],
    });
    expect(await resolve({ search: 'nobody' })).toEqual({ items: [] });
    expect(h.scm.userSearches).toEqual([SCM_SCOPE_PATH, SCM_SCOPE_PATH]);
  });

  it('searches on the host when the connection has no enabled scope', async () => {
    expect((await resolve({ search: 'margin' })).items).toEqual([
      { externalUserId: '99', login: 'margin-bot', displayName: 'Margin', isBot: true },
    ]);
    expect(h.scm.userSearches).toEqual([SCM_HOST]);
  });

  it('needs a search text (400)', async () => {
    for (const query of [{}, { search: '   ' }]) {
      expect(issuesOf(await refusalOf(resolve(query)))).toEqual([{ path: 'search', message: 'is required' }]);
    }
    expect(issuesOf(await refusalOf(resolve({ search: ['a', 'b'] })))).toEqual([
      { path: 'search', message: 'must be a string' },
    ]);
  });

  it('answers a provider refusal with its error (502), without the secret', async () => {
    const wrong = 'scm-canary-wrong-secret-77c1e0';
    await h.core.scm.patchProviderConnection(PLATFORM_ADMIN, clientId, connectionId, { secret: wrong });
    const refused = await refusalOf(resolve({ search: 'ada' }));
    expect(refused.code).toBe('provider_unavailable');
    expect(refused.details).toMatchObject({ providerFailure: 'credentials' });
    expect(JSON.stringify(refused.toBody())).not.toContain(wrong);
  });
});

describe('the reviewer identity', () => {
  it('is one per connection: 404 before, set by put, replaced by the next put, read by get', async () => {
    const none = await refusalOf(get());
    expect([none.code, none.message]).toEqual(['not_found', 'This provider connection has no reviewer identity yet.']);

    const first = await put({ externalUserId: '99', login: 'margin-bot', isBot: true, extra: 1 });
    const createdAt = h.clock.now().toISOString();
    expect(first).toEqual({
      clientId,
      connectionId,
      externalUserId: '99',
      login: 'margin-bot',
      displayName: 'margin-bot',
      isBot: true,
      createdAt,
      updatedAt: createdAt,
    });
    expect(await get()).toEqual(first);

    h.clock.advance(1000);
    expect(await put({ externalUserId: '7', login: 'ada', displayName: 'Ada Lovelace' })).toEqual({
      clientId,
      connectionId,
      externalUserId: '7',
      login: 'ada',
      displayName: 'Ada Lovelace',
      isBot: false,
      createdAt,
      updatedAt: h.clock.now().toISOString(),
    });
  });

  it('validates the identity (400)', async () => {
    expect(issuesOf(await refusalOf(put({})))).toEqual([
      { path: 'externalUserId', message: 'is required' },
      { path: 'login', message: 'is required' },
    ]);
    expect(issuesOf(await refusalOf(put({ externalUserId: ' ', login: 'x', isBot: 'yes' })))).toEqual([
      { path: 'externalUserId', message: 'must not be blank' },
      { path: 'isBot', message: 'must be a boolean' },
    ]);
  });
});

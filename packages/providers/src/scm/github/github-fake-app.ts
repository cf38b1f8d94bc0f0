import { type GitHubFakeContext, ghFixture, notFound, V3 } from './github-fake-context.js';

/** The GitHub App's own endpoints, called with its JWT: the App, its installation, installation tokens. */
export function serveApp(fake: GitHubFakeContext): void {
  const { route, options, issuedTokens, clock } = fake;

  route('GET', `${V3}/app`, () => ({ json: ghFixture('app') }), 'jwt');
  route('GET', `${V3}/app/installations/:installation`, () => ({ json: ghFixture('installation') }), 'jwt');
  route(
    'POST',
    `${V3}/app/installations/:installation/access_tokens`,
    (req) => {
      if (Number(req.params.installation) !== options.app?.installationId) return notFound();
      const fixture = ghFixture<{ token: string }>('installation-token');
      const token = `${fixture.token}.${issuedTokens.length + 1}`;
      issuedTokens.push(token);
      return {
        status: 201,
        json: { ...fixture, token, expires_at: new Date(clock() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z') },
      };
    },
    'jwt',
  );
}

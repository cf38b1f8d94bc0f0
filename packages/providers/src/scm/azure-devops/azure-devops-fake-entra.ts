import { type AzureDevOpsFakeContext, adoFixture } from './azure-devops-fake-context.js';

/** Microsoft Entra's token endpoint for a service principal: a client secret in, a bearer token out. */
export function serveEntra(fake: AzureDevOpsFakeContext): void {
  const { server, options, issuedTokens } = fake;
  server.on('POST', '/:tenant/oauth2/v2.0/token', (req) => {
    const form = new URLSearchParams(req.text);
    if (form.get('client_secret') !== options.clientSecret || form.get('grant_type') !== 'client_credentials') {
      return { status: 401, json: adoFixture('entra-invalid-client') };
    }
    const token = `${adoFixture<{ access_token: string }>('entra-token').access_token}.${issuedTokens.length + 1}`;
    issuedTokens.push(token);
    return { json: { ...adoFixture<object>('entra-token'), access_token: token } };
  });
}

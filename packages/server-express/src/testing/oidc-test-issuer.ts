import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Configuration, default as Provider } from 'oidc-provider';

/**
 * A real OpenID Connect provider (`oidc-provider`) on loopback, for SSO tests. It signs in whoever
 * `nextLogin` names without a login form, so tests drive the whole browser round trip over HTTP.
 * Test-only: not exported from `testing/index.ts` (oidc-provider is a dev dependency).
 */
export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface OidcTestIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorization signs in as. */
  nextLogin: TestAccount;
  /** When set, the authorization request's nonce is replaced, so the ID token carries another one. */
  tamperNonce: boolean;
  /** Discovery documents served so far (`/.well-known/openid-configuration`). */
  readonly discoveries: number;
  /** Signs from now on with a new key (a new `kid`), and publishes only that one: a key rotation. */
  rotateKeys(): void;
  close(): Promise<void>;
}

export async function startOidcTestIssuer(options: { redirectUris: string[] }): Promise<OidcTestIssuer> {
  const accounts = new Map<string, TestAccount>();
  let provider: Provider | undefined;
  const state: Pick<OidcTestIssuer, 'nextLogin' | 'tamperNonce'> = {
    nextLogin: { sub: 'nobody' },
    tamperNonce: false,
  };
  let discoveries = 0;

  const server: Server = createServer((req, res) => {
    if (!provider) return void res.writeHead(503).end();
    if (req.url?.startsWith('/interaction/')) return void finishInteraction(provider, req, res);
    if (req.url?.startsWith('/.well-known/openid-configuration')) discoveries++;
    return provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const clientId = 'margin-test';
  const clientSecret = 'margin-test-client-secret-0123456789';
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The relying party reads the email from the ID token, not from the userinfo endpoint.
    conformIdTokenClaims: false,
    cookies: { keys: ['oidc-test-issuer-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ ...account }) };
    },
  };
  // Loaded here, not at import: suites that share the test kits but no issuer never load it.
  const { default: OidcProvider } = await import('oidc-provider');
  const build = () => {
    const p = new OidcProvider(issuer, { ...configuration, jwks: { keys: [signingKey()] } });
    p.use(async (ctx, next) => {
      if (state.tamperNonce && ctx.path === '/auth' && ctx.query.nonce) {
        const query = new URLSearchParams(ctx.querystring);
        query.set('nonce', 'a-nonce-margin-never-sent');
        ctx.querystring = query.toString();
      }
      await next();
    });
    return p;
  };
  provider = build();

  /** Signs `nextLogin` in and grants the requested scopes: what a person would do at the provider. */
  async function finishInteraction(p: Provider, req: IncomingMessage, res: ServerResponse) {
    try {
      const details = await p.interactionDetails(req, res);
      const account = state.nextLogin;
      accounts.set(account.sub, account);
      const grant = new p.Grant({ accountId: account.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await p.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  }

  // A getter (Object.assign would copy its value once).
  Object.defineProperty(state, 'discoveries', { get: () => discoveries, enumerable: true });
  return Object.assign(state as typeof state & { readonly discoveries: number }, {
    issuer,
    clientId,
    clientSecret,
    rotateKeys: () => {
      provider = build();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** An RS256 signing key of its own (oidc-provider's built-in development key never changes). */
function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/**
 * A browser, as far as redirects and cookies go: follows 30x answers across origins, keeping each
 * host's cookies, and stops at the first answer from `stopAt` that is not a redirect into it again
 * (the host's final redirect after the callback). Returns that answer's status and Location.
 */
export class TestBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string): void {
    if (!this.jar.has(host)) this.jar.set(host, new Map());
    this.jar.get(host)?.set(name, value);
  }

  async get(url: string): Promise<{ status: number; location: string | undefined; url: URL }> {
    const target = new URL(url);
    const cookies = [...(this.jar.get(target.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(target, { redirect: 'manual', headers: cookies ? { cookie: cookies } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=thu, 01 jan 1970/i.test(a)) || value === '';
      if (expired) this.jar.get(target.host)?.delete(name);
      else this.setCookie(target.host, name, value);
    }
    await res.arrayBuffer();
    const location = res.headers.get('location') ?? undefined;
    return { status: res.status, location: location && new URL(location, target).href, url: target };
  }

  /** Follows redirects from `url` until `until` says stop (given each answer), at most 20 hops. */
  async follow(
    url: string,
    until: (answer: { status: number; location: string | undefined; url: URL }) => boolean,
  ): Promise<{ status: number; location: string | undefined; url: URL }> {
    let next = url;
    for (let hop = 0; hop < 20; hop++) {
      const answer = await this.get(next);
      if (until(answer) || !answer.location || answer.status < 300 || answer.status >= 400) return answer;
      next = answer.location;
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

import type * as Undici from 'undici';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

// Node-only modules, loaded when a `ca` is first used: the console bundles this client for browsers,
// which neither have them nor need them (the browser's own trust store decides there).
const NODE_ONLY = { undici: 'undici', tls: 'node:tls' };

async function agentTrusting(ca: string): Promise<{ agent: Undici.Agent; fetch: typeof Undici.fetch }> {
  const undici: typeof Undici = await import(/* @vite-ignore */ NODE_ONLY.undici);
  const { rootCertificates }: typeof import('node:tls') = await import(/* @vite-ignore */ NODE_ONLY.tls);
  return { agent: new undici.Agent({ connect: { ca: [...rootCertificates, ca] } }), fetch: undici.fetch };
}

/**
 * A `fetch` (Node) that also trusts `ca` (PEM: a private CA, or a server's self-signed certificate)
 * beside the public roots. Verification itself stays on: a certificate neither vouches for is refused.
 */
export function fetchTrusting(ca: string): typeof fetch {
  let undici: ReturnType<typeof agentTrusting> | undefined;
  return async (input, init) => {
    undici ??= agentTrusting(ca);
    const { agent, fetch: undiciFetch } = await undici;
    const request = new Request(input, init);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const answer = await undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      body,
      signal: request.signal,
      redirect: request.redirect,
      dispatcher: agent,
    });
    // The platform's own Response class: ky and openapi-fetch check `instanceof Response`.
    return new Response(NULL_BODY_STATUSES.has(answer.status) ? null : (answer.body as ReadableStream | null), {
      status: answer.status,
      statusText: answer.statusText,
      headers: [...answer.headers],
    });
  };
}

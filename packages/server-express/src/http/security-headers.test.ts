import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers.js';

function headersOf(apply: (res: ServerResponse) => void): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  const res = {
    setHeader: (n: string, v: unknown) => {
      headers[n.toLowerCase()] = v;
    },
    removeHeader: (n: string) => {
      delete headers[n.toLowerCase()];
    },
    getHeader: (n: string) => headers[n.toLowerCase()],
  } as unknown as ServerResponse;
  apply(res);
  return headers;
}

describe('securityHeaders', () => {
  it('sets exactly the headers helmet sets', () => {
    const ours = headersOf((res) => securityHeaders()({} as never, res as never, () => undefined));
    const helmets = headersOf((res) => helmet()({} as IncomingMessage, res, () => undefined));
    expect(ours).toEqual(helmets);
    expect(ours['content-security-policy']).toContain("default-src 'self'");
  });
});

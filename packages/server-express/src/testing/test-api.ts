export interface ApiResponse {
  status: number;
  body: any;
  headers: Headers;
}

export interface Credentials {
  bearer?: string | undefined;
  pat?: string | undefined;
  cookie?: string | undefined;
}

/** A small HTTP client for end-to-end tests: real requests to a listening host, JSON in and out. */
export class TestApi {
  constructor(
    readonly baseUrl: string,
    readonly credentials: Credentials = {},
  ) {}

  with(credentials: Credentials): TestApi {
    return new TestApi(this.baseUrl, credentials);
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.credentials.bearer) headers.authorization = `Bearer ${this.credentials.bearer}`;
    if (this.credentials.pat) headers['x-user-pat'] = this.credentials.pat;
    if (this.credentials.cookie) headers.cookie = this.credentials.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }
  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
  put(path: string, body?: unknown) {
    return this.request('PUT', path, body);
  }
  patch(path: string, body?: unknown) {
    return this.request('PATCH', path, body);
  }
  delete(path: string) {
    return this.request('DELETE', path);
  }
}

/** The `name=value` pair of a Set-Cookie header, for sending the cookie back. */
export function cookiePair(setCookie: string | null): string | undefined {
  return setCookie?.split(';', 1)[0];
}

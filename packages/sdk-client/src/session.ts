import { AuthenticationError, errorFromResponse } from './errors.js';

export type Credentials =
  | { personalAccessToken: string }
  | { accessToken: string }
  | { username: string; password: string };

type Send = (request: Request) => Promise<Response>;

interface TokenAnswer {
  accessToken: string;
  expiresIn: number;
  refreshToken?: string;
}

const REFRESH_COOKIE = 'margin_refresh';
// Refresh a little before the access token runs out, so a request never leaves with a dying token.
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Holds a signed-in session for username/password credentials: signs in on first use, refreshes the
 * access token before it expires (the refresh token rotates each time) and signs in again when the
 * session has ended.
 */
export class PasswordSession {
  private accessToken: string | undefined;
  private expiresAt = 0;
  private refreshToken: string | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly username: string,
    private readonly password: string,
    private readonly send: Send,
  ) {}

  /** A valid access token, signing in or refreshing as needed. Concurrent callers share one attempt. */
  token(): Promise<string> {
    if (this.accessToken && Date.now() < this.expiresAt - EXPIRY_MARGIN_MS) return Promise.resolve(this.accessToken);
    this.pending ??= this.renew().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forget the access token (after a 401) so the next call refreshes. */
  invalidate(): void {
    this.accessToken = undefined;
  }

  private async renew(): Promise<string> {
    if (this.refreshToken) {
      try {
        return this.accept(await this.post('/auth/refresh', { refreshToken: this.refreshToken }));
      } catch (error) {
        if (!(error instanceof AuthenticationError)) throw error;
        this.refreshToken = undefined; // the session ended: sign in again
      }
    }
    return this.accept(await this.post('/auth/login', { username: this.username, password: this.password }));
  }

  private accept({ answer, response }: { answer: TokenAnswer; response: Response }): string {
    this.accessToken = answer.accessToken;
    this.expiresAt = Date.now() + answer.expiresIn * 1000;
    this.refreshToken = answer.refreshToken ?? refreshCookie(response) ?? this.refreshToken;
    return answer.accessToken;
  }

  private async post(path: string, body: unknown): Promise<{ answer: TokenAnswer; response: Response }> {
    const response = await this.send(
      new Request(this.baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    const parsed: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw errorFromResponse(response.status, parsed, response.headers.get('retry-after'));
    return { answer: parsed as TokenAnswer, response };
  }
}

function refreshCookie(response: Response): string | undefined {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(';', 1);
    if (pair?.startsWith(`${REFRESH_COOKIE}=`)) return pair.slice(REFRESH_COOKIE.length + 1) || undefined;
  }
  return undefined;
}

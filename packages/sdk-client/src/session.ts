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

/**
 * A client's signed-in session (`client.session`), for a client created without credentials (an app
 * that asks its user to sign in, e.g. in a browser) or with a username and password. Calls carry its
 * access token, renewed before it runs out and again when the API refuses it.
 */
export interface MarginSession {
  /** Signs in; the password is not kept. */
  signIn(username: string, password: string): Promise<void>;
  /**
   * Takes up the session of the API's refresh cookie (a browser page after a reload); false when
   * there is none to take up.
   */
  resume(): Promise<boolean>;
  /** Ends the session at the API and here. A client with a password signs in again on its next call. */
  signOut(): Promise<void>;
  /** Whether the session holds an access token. */
  readonly signedIn: boolean;
  /**
   * Calls `listener` when the session ends without the client starting another: the API refused
   * the refresh (expired, revoked, replayed) or `signOut()`. Answers a function that unsubscribes.
   */
  onEnded(listener: () => void): () => void;
}

const REFRESH_COOKIE = 'margin_refresh';
// Refresh a little before the access token runs out, so a request never leaves with a dying token.
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Holds the access token in memory and the refresh token where the runtime allows: in memory when
 * the API's answer shows it (Node reads the `Set-Cookie` header), else in the API's httpOnly cookie,
 * which a browser sends by itself and script never sees. Refresh tokens rotate on every use.
 */
export class Session implements MarginSession {
  private accessToken: string | undefined;
  private expiresAt = 0;
  private refreshToken: string | undefined;
  private pending: Promise<string | undefined> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly baseUrl: string,
    private readonly send: Send,
    /** Kept only when the client was created with them: it then signs in again when a session ends. */
    private readonly password?: { username: string; password: string },
  ) {}

  get signedIn(): boolean {
    return this.accessToken !== undefined;
  }

  onEnded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async signIn(username: string, password: string): Promise<void> {
    this.accept(await this.post('/auth/login', { username, password }));
  }

  async resume(): Promise<boolean> {
    return (await this.once(() => this.refresh())) !== undefined;
  }

  async signOut(): Promise<void> {
    try {
      await this.post('/auth/logout', this.refreshBody());
    } finally {
      this.refreshToken = undefined;
      this.end();
    }
  }

  /**
   * A valid access token, renewed (or, with a stored password, signed in) as needed; undefined when
   * there is no session. Concurrent callers share one attempt.
   */
  token(): Promise<string | undefined> {
    if (this.accessToken && Date.now() < this.expiresAt - EXPIRY_MARGIN_MS) return Promise.resolve(this.accessToken);
    if (!this.accessToken && !this.password) return Promise.resolve(undefined);
    return this.once(() => this.renew());
  }

  /**
   * The API refused `token` (expired or revoked early): the token to repeat the call with, renewed
   * once however many calls were refused together, or undefined when the session has ended.
   */
  refused(token: string | undefined): Promise<string | undefined> {
    if (token === this.accessToken) this.expiresAt = 0;
    return this.token();
  }

  private once(work: () => Promise<string | undefined>): Promise<string | undefined> {
    this.pending ??= work().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async renew(): Promise<string | undefined> {
    if (this.accessToken) {
      const refreshed = await this.refresh();
      if (refreshed) return refreshed;
    }
    if (this.password) return this.accept(await this.post('/auth/login', this.password));
    this.end();
    return undefined;
  }

  /** Trades the refresh token for a new access token; undefined when the API refuses it. */
  private async refresh(): Promise<string | undefined> {
    const exchange = () => this.post('/auth/refresh', this.refreshBody());
    try {
      // The cookie is shared by every tab of the site, and a refresh token used twice ends the whole
      // session: tabs take turns, so the second one sends the cookie the first one's refresh rotated.
      return this.accept(await (this.refreshToken ? exchange() : inTurn('margin-refresh', exchange)));
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      this.refreshToken = undefined;
      return undefined;
    }
  }

  private refreshBody(): { refreshToken?: string } {
    return this.refreshToken ? { refreshToken: this.refreshToken } : {};
  }

  private accept({ answer, response }: { answer: TokenAnswer; response: Response }): string {
    this.accessToken = answer.accessToken;
    this.expiresAt = Date.now() + answer.expiresIn * 1000;
    this.refreshToken = answer.refreshToken ?? refreshCookie(response) ?? this.refreshToken;
    return answer.accessToken;
  }

  private end(): void {
    const ended = this.accessToken !== undefined;
    this.accessToken = undefined;
    this.expiresAt = 0;
    if (ended) for (const listener of this.listeners) listener();
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

/** The refresh token of a `Set-Cookie` header, where the runtime shows that header (not a browser). */
function refreshCookie(response: Response): string | undefined {
  for (const cookie of response.headers.getSetCookie?.() ?? []) {
    const [pair] = cookie.split(';', 1);
    if (pair?.startsWith(`${REFRESH_COOKIE}=`)) return pair.slice(REFRESH_COOKIE.length + 1) || undefined;
  }
  return undefined;
}

/** The part of the Web Locks API used here; the SDK is typed for Node, which has none. */
interface WebLocks {
  request<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** Runs `work` holding the named Web Lock, where the runtime has Web Locks (browsers), else at once. */
function inTurn<T>(name: string, work: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: WebLocks } }).navigator?.locks;
  return locks ? locks.request(name, work) : work();
}

import type { Request, Response } from 'express';

export const REFRESH_COOKIE = 'margin_refresh';

/**
 * The refresh token travels only in this cookie: httpOnly, `Secure` over https, SameSite=Lax, and
 * sent only to the auth endpoints wherever the API is mounted.
 */
function cookieOptions(req: Request) {
  return { httpOnly: true, secure: req.secure, sameSite: 'lax' as const, path: authPath(req) };
}

/** `/api/auth` behind the gateway, `/auth` when the API is mounted bare: wherever these routes live. */
export function authPath(req: Request): string {
  const url = req.originalUrl.split('?', 1)[0] ?? '';
  return `${url.slice(0, url.lastIndexOf('/auth/'))}/auth`;
}

export function setRefreshCookie(req: Request, res: Response, token: string, expiresAt: string): void {
  res.cookie(REFRESH_COOKIE, token, { ...cookieOptions(req), expires: new Date(expiresAt) });
}

export function clearRefreshCookie(req: Request, res: Response): void {
  res.clearCookie(REFRESH_COOKIE, cookieOptions(req));
}

export function readRefreshCookie(req: Request): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
  return typeof value === 'string' && value ? value : undefined;
}

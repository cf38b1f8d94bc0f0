import type { SecretBox } from '@margin/core/spec';
import type { Request, Response } from 'express';
import { z } from 'zod';

export const SSO_STATE_COOKIE = 'margin_sso';
/** Long enough to sign in at the identity provider, short enough that a stolen cookie goes stale. */
export const SSO_STATE_TTL_SECONDS = 600;
const CONTEXT = 'margin/sso-state';

/** What one sign-in attempt must remember between start and callback; never readable by the browser. */
const SsoState = z.object({
  providerId: z.string(),
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  redirectUri: z.string(),
  returnTo: z.string(),
  expiresAt: z.number(),
});
export type SsoState = z.infer<typeof SsoState>;

/** Sealed (AES-GCM, bound to its purpose) so it can be neither read nor forged; the callback's path only. */
function cookieOptions(req: Request, callbackPath: string) {
  return { httpOnly: true, secure: req.secure, sameSite: 'lax' as const, path: callbackPath };
}

export function setSsoStateCookie(
  req: Request,
  res: Response,
  box: SecretBox,
  callbackPath: string,
  state: SsoState,
): void {
  res.cookie(SSO_STATE_COOKIE, box.seal(JSON.stringify(state), CONTEXT), {
    ...cookieOptions(req, callbackPath),
    maxAge: SSO_STATE_TTL_SECONDS * 1000,
  });
}

/** The attempt's state, or undefined when the cookie is missing, forged, unreadable or stale. */
export function takeSsoStateCookie(
  req: Request,
  res: Response,
  box: SecretBox,
  callbackPath: string,
  now: number,
): SsoState | undefined {
  const raw = (req.cookies as Record<string, unknown> | undefined)?.[SSO_STATE_COOKIE];
  // One attempt, one callback: the cookie is cleared whatever happens next.
  res.clearCookie(SSO_STATE_COOKIE, cookieOptions(req, callbackPath));
  if (typeof raw !== 'string' || !raw) return undefined;
  try {
    const parsed = SsoState.safeParse(JSON.parse(box.open(raw, CONTEXT)));
    return parsed.success && parsed.data.expiresAt > now ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

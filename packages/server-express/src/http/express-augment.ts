import type { Actor } from '@margin/core';

declare global {
  namespace Express {
    interface Request {
      /** Set by the request observer; echoed in `X-Request-Id` and error bodies. */
      id: string;
      /** Set by the authentication middleware when the request carries a valid credential. */
      actor?: Actor | undefined;
    }
  }
}

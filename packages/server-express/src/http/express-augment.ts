import type { Actor, MarginError } from '@margin/core';

declare global {
  namespace Express {
    interface Request {
      /** Set by the request observer; echoed in `X-Request-Id` and error bodies. */
      id: string;
      /** Set by the authentication middleware when the request carries a valid credential. */
      actor?: Actor | undefined;
      /** Why a credential the request carried was refused, answered by routes that need one. */
      authFailure?: MarginError | undefined;
    }
  }
}

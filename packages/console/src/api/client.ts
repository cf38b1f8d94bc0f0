import { createMarginClient, type MarginClient } from '@margin/sdk-client';

/**
 * The console's one API client. Its session (`api.session`, the SDK's) keeps the access token in
 * this page's memory only; the refresh token is the API's httpOnly cookie, which script never sees,
 * so a reload takes the session up again from that cookie and deep links work without storing
 * anything in the browser.
 */
export const api: MarginClient = createMarginClient({ baseUrl: `${window.location.origin}/api`, retries: 1 });

import type { RouteSpec } from '../http/route.js';

/** Every API endpoint, one table per capability. openapi.json is generated from this list. */
export const API_ROUTES: readonly RouteSpec[] = [];

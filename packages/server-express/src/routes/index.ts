import type { RouteSpec } from '../http/route.js';
import { aiConnectionsRoutes } from './ai-connections-routes.js';
import { auditRoutes } from './audit-routes.js';
import { authRoutes } from './auth-routes.js';
import { discoveryRoutes } from './discovery-routes.js';
import { knowledgeRoutes } from './knowledge-routes.js';
import { licensingRoutes } from './licensing-routes.js';
import { logicalModelsRoutes } from './logical-models-routes.js';
import { providerConnectionsRoutes } from './provider-connections-routes.js';
import { reviewingRoutes } from './reviewing-routes.js';
import { spendRoutes } from './spend-routes.js';
import { ssoRoutes } from './sso-routes.js';
import { tenancyRoutes } from './tenancy-routes.js';
import { tenantAiConnectionsRoutes } from './tenant-ai-connections-routes.js';
import { threadMemoryRoutes } from './thread-memory-routes.js';
import { triggersRoutes } from './triggers-routes.js';
import { usersRoutes } from './users-routes.js';

/** Every API endpoint, one table per capability. openapi.json is generated from this list. */
export const API_ROUTES: readonly RouteSpec[] = [
  ...authRoutes,
  ...ssoRoutes,
  ...usersRoutes,
  ...tenancyRoutes,
  ...licensingRoutes,
  ...auditRoutes,
  ...reviewingRoutes,
  ...threadMemoryRoutes,
  ...providerConnectionsRoutes,
  ...discoveryRoutes,
  ...aiConnectionsRoutes,
  ...tenantAiConnectionsRoutes,
  ...logicalModelsRoutes,
  ...triggersRoutes,
  ...knowledgeRoutes,
  ...spendRoutes,
];

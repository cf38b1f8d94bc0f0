import { LicensingView, PatchLicensingInput } from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';

const TAG = 'Licensing';

export const licensingRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/admin/licensing',
    group: 'licensing',
    operationId: 'getLicensing',
    summary: 'The edition and every capability’s state (platform administrator)',
    tag: TAG,
    responses: { 200: { description: 'Licensing.', schema: LicensingView }, ...errors(403) },
    handler: async ({ core, actor }) => ({ status: 200, body: await core.licensing.getLicensing(actor) }),
  }),
  route({
    method: 'patch',
    path: '/admin/licensing',
    group: 'licensing',
    operationId: 'patchLicensing',
    summary: 'Set the edition and capability overrides (platform administrator)',
    tag: TAG,
    body: PatchLicensingInput,
    responses: { 200: { description: 'Licensing as changed.', schema: LicensingView }, ...errors(403, 409) },
    handler: async ({ core, actor, body }) => ({ status: 200, body: await core.licensing.patchLicensing(actor, body) }),
  }),
];

import type { ListenerBase } from '@margin/core';
import {
  ByCoordinatesResult,
  CrawlConfigurationList,
  CrawlConfigurationView,
  CreateCrawlConfigurationInput,
  CreatedWebhookConfigurationView,
  CreateKnowledgeSourceInput,
  CreateWebhookConfigurationInput,
  DeliveriesQuery,
  KnowledgeSourceList,
  KnowledgeSourceView,
  PatchCrawlConfigurationInput,
  PatchWebhookConfigurationInput,
  SubmitByCoordinatesInput,
  TriggerListQuery,
  WebhookAcknowledgement,
  WebhookConfigurationList,
  WebhookConfigurationView,
  WebhookDeliveryList,
} from '@margin/core/schemas';
import type { WebhookHeaders } from '@margin/core/spec';
import type { Request } from 'express';
import { z } from 'zod';
import type { HostContext } from '../host/host-context.js';
import { statusOfRefusal } from '../http/errors.js';
import { publicRoute, type RouteSpec, route } from '../http/route.js';
import { ErrorBody, errors } from '../openapi/error-body.js';
import { ClientParams, PageQuery } from './params.js';

const id = z.string().min(1).max(100);
const ConfigParams = z.object({ configId: id });
const SourceParams = z.object({ clientId: id, sourceId: id });
const ReceiverParams = z.object({
  provider: z.string().max(100).meta({ description: '`devopsA`, `gitHostA`, `gitHostB` or `gitHostC` (any case).' }),
  pathKey: z.string().max(100).meta({ description: 'The configuration’s 32-hex path key.' }),
});
const ListQuery = TriggerListQuery.extend({
  limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Page size, 1–200 (default 50).' }),
});

/**
 * Where providers reach this installation: MARGIN_PUBLIC_BASE_URL (the gateway root), or else the
 * address the host listens on. Never the request's Host header: any caller chooses that, and would
 * make the listener URL an administrator copies into a provider point wherever they like.
 */
export function listenerBase(host: HostContext): ListenerBase {
  if (host.config.publicBaseUrl) return { baseUrl: host.config.publicBaseUrl, source: 'publicBaseUrl' };
  return { baseUrl: host.listenUrl ?? '', source: 'listenAddress' };
}

const WEBHOOKS = 'Webhook configurations';
const CRAWL = 'Crawl configurations';
const KNOWLEDGE = 'Code knowledge';

export const triggersRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/admin/webhook-configurations',
    group: 'triggers',
    operationId: 'createWebhookConfiguration',
    summary: 'Create a webhook configuration; the generated secret is shown only here (ClientAdministrator)',
    tag: WEBHOOKS,
    body: CreateWebhookConfigurationInput,
    responses: {
      201: {
        description: 'Created, with `listenerUrl` and `generatedSecret`.',
        schema: CreatedWebhookConfigurationView,
      },
      ...errors(400, 403, 404),
    },
    handler: async ({ core, host, actor, body }) => ({
      status: 201,
      body: await core.triggers.createWebhookConfiguration(actor, body, listenerBase(host)),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/webhook-configurations',
    group: 'triggers',
    operationId: 'listWebhookConfigurations',
    summary: 'Webhook configurations of the clients the caller can see, oldest first (ClientUser)',
    tag: WEBHOOKS,
    query: ListQuery,
    responses: {
      200: { description: 'A page of configurations.', schema: WebhookConfigurationList },
      ...errors(403, 404),
    },
    handler: async ({ core, host, actor, query }) => ({
      status: 200,
      body: await core.triggers.listWebhookConfigurations(actor, query, listenerBase(host)),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/webhook-configurations/{configId}',
    group: 'triggers',
    operationId: 'getWebhookConfiguration',
    summary: 'A webhook configuration, without its secret (ClientUser)',
    tag: WEBHOOKS,
    params: ConfigParams,
    responses: { 200: { description: 'The configuration.', schema: WebhookConfigurationView }, ...errors(404) },
    handler: async ({ core, host, actor, params }) => ({
      status: 200,
      body: await core.triggers.getWebhookConfiguration(actor, params.configId, listenerBase(host)),
    }),
  }),
  route({
    method: 'patch',
    path: '/admin/webhook-configurations/{configId}',
    group: 'triggers',
    operationId: 'patchWebhookConfiguration',
    summary:
      'Change isActive, reviewTemperature, enabledEvents, repoFilters or the knowledge scope (ClientAdministrator)',
    tag: WEBHOOKS,
    params: ConfigParams,
    body: PatchWebhookConfigurationInput,
    responses: {
      200: { description: 'The configuration.', schema: WebhookConfigurationView },
      ...errors(400, 403, 404),
    },
    handler: async ({ core, host, actor, params, body }) => ({
      status: 200,
      body: await core.triggers.patchWebhookConfiguration(actor, params.configId, body, listenerBase(host)),
    }),
  }),
  route({
    method: 'delete',
    path: '/admin/webhook-configurations/{configId}',
    group: 'triggers',
    operationId: 'deleteWebhookConfiguration',
    summary: 'Delete a webhook configuration and its delivery history (ClientAdministrator)',
    tag: WEBHOOKS,
    params: ConfigParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => {
      await core.triggers.deleteWebhookConfiguration(actor, params.configId);
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/admin/webhook-configurations/{configId}/deliveries',
    group: 'triggers',
    operationId: 'listWebhookDeliveries',
    summary: 'Recent deliveries, newest first (ClientUser)',
    tag: WEBHOOKS,
    params: ConfigParams,
    query: DeliveriesQuery,
    responses: { 200: { description: 'Deliveries.', schema: WebhookDeliveryList }, ...errors(404) },
    handler: async ({ core, actor, params, req }) => ({
      status: 200,
      // The raw query: the use case clamps `take` instead of refusing it.
      body: await core.triggers.listWebhookDeliveries(actor, params.configId, req.query),
    }),
  }),
  route({
    method: 'post',
    path: '/admin/crawl-configurations',
    group: 'triggers',
    operationId: 'createCrawlConfiguration',
    summary: 'Create a crawl configuration; needs crawl-configs (ClientAdministrator)',
    tag: CRAWL,
    body: CreateCrawlConfigurationInput,
    responses: {
      201: { description: 'Created; the first crawl is due at once.', schema: CrawlConfigurationView },
      ...errors(400, 403, 404, 409),
    },
    handler: async ({ core, actor, body }) => ({
      status: 201,
      body: await core.triggers.createCrawlConfiguration(actor, body),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/crawl-configurations',
    group: 'triggers',
    operationId: 'listCrawlConfigurations',
    summary: 'Crawl configurations of the clients the caller can see; needs crawl-configs (ClientUser)',
    tag: CRAWL,
    query: ListQuery,
    responses: {
      200: { description: 'A page of configurations.', schema: CrawlConfigurationList },
      ...errors(403, 404, 409),
    },
    handler: async ({ core, actor, query }) => ({
      status: 200,
      body: await core.triggers.listCrawlConfigurations(actor, query),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/crawl-configurations/{configId}',
    group: 'triggers',
    operationId: 'getCrawlConfiguration',
    summary: 'A crawl configuration with its last crawl; needs crawl-configs (ClientUser)',
    tag: CRAWL,
    params: ConfigParams,
    responses: { 200: { description: 'The configuration.', schema: CrawlConfigurationView }, ...errors(404, 409) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.triggers.getCrawlConfiguration(actor, params.configId),
    }),
  }),
  route({
    method: 'patch',
    path: '/admin/crawl-configurations/{configId}',
    group: 'triggers',
    operationId: 'patchCrawlConfiguration',
    summary: 'Change a crawl configuration; needs crawl-configs (ClientAdministrator)',
    tag: CRAWL,
    params: ConfigParams,
    body: PatchCrawlConfigurationInput,
    responses: {
      200: { description: 'The configuration.', schema: CrawlConfigurationView },
      ...errors(400, 403, 404, 409),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.triggers.patchCrawlConfiguration(actor, params.configId, body),
    }),
  }),
  route({
    method: 'delete',
    path: '/admin/crawl-configurations/{configId}',
    group: 'triggers',
    operationId: 'deleteCrawlConfiguration',
    summary: 'Delete a crawl configuration; needs crawl-configs (ClientAdministrator)',
    tag: CRAWL,
    params: ConfigParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params }) => {
      await core.triggers.deleteCrawlConfiguration(actor, params.configId);
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/reviewing/jobs/by-coordinates',
    group: 'reviewing',
    operationId: 'submitReviewByCoordinates',
    summary:
      'Queue a review of a pull request named by its coordinates, under the configuration covering them (ClientUser)',
    tag: 'Reviewing',
    params: ClientParams,
    body: SubmitByCoordinatesInput,
    responses: {
      202: { description: '`submitted`: queued; poll the job.', schema: ByCoordinatesResult },
      400: { description: 'A field is missing or invalid; no outcome.', schema: ErrorBody },
      403: {
        description: '`notAuthorized`: no configuration of the client covers the coordinates.',
        schema: ByCoordinatesResult,
      },
      404: {
        description: '`pullRequestNotFound` (or the client is not visible: plain error body).',
        schema: ByCoordinatesResult,
      },
      409: {
        description:
          '`duplicateActiveJob` (with the active `jobId`) or `notSubmittable` (`reason`: closed, merged, blocked, scopeUnresolvable, oneAtATime).',
        schema: ByCoordinatesResult,
      },
      500: { description: '`submissionFailed`: queueing failed internally.', schema: ByCoordinatesResult },
      502: {
        description: '`revisionUnresolvable`: the provider could not be asked or answered without commits.',
        schema: ByCoordinatesResult,
      },
    },
    handler: async ({ core, host, actor, params, body, req }) => {
      const answer = await core.reviewing.submitReviewByCoordinates(actor, params.clientId, body);
      if (answer.outcome === 'submitted') return { status: 202, body: answer };
      const { cause, ...refusal } = answer;
      if (cause !== undefined) host.logger.error({ err: cause, reqId: req.id }, 'by-coordinates submission failed');
      return { status: statusOfRefusal(refusal.code), body: refusal };
    },
  }),
  route({
    method: 'post',
    path: '/admin/clients/{clientId}/knowledge/sources',
    group: 'knowledge',
    operationId: 'createKnowledgeSource',
    summary: 'Add a code-knowledge source (ClientAdministrator)',
    tag: KNOWLEDGE,
    params: ClientParams,
    body: CreateKnowledgeSourceInput,
    responses: { 201: { description: 'Created.', schema: KnowledgeSourceView }, ...errors(400, 403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.knowledge.createKnowledgeSource(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/clients/{clientId}/knowledge/sources',
    group: 'knowledge',
    operationId: 'listKnowledgeSources',
    summary: 'The client’s code-knowledge sources, oldest first (ClientUser)',
    tag: KNOWLEDGE,
    params: ClientParams,
    query: PageQuery,
    responses: { 200: { description: 'A page of sources.', schema: KnowledgeSourceList }, ...errors(403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.knowledge.listKnowledgeSources(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/clients/{clientId}/knowledge/sources/{sourceId}',
    group: 'knowledge',
    operationId: 'getKnowledgeSource',
    summary: 'A code-knowledge source (ClientUser)',
    tag: KNOWLEDGE,
    params: SourceParams,
    responses: { 200: { description: 'The source.', schema: KnowledgeSourceView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.knowledge.getKnowledgeSource(actor, params.clientId, params.sourceId),
    }),
  }),
  publicRoute({
    method: 'post',
    path: '/webhooks/v1/providers/{provider}/{pathKey}',
    group: 'triggers',
    operationId: 'receiveWebhook',
    summary: 'The public webhook receiver: authenticated by the configuration’s generated secret',
    tag: 'Webhook receiver',
    params: ReceiverParams,
    body: z.unknown().meta({ id: 'ProviderWebhookPayload', description: 'The provider’s own payload, as sent.' }),
    responses: {
      200: {
        description: 'Validated: `accepted` (a review will be queued) or `ignored`.',
        schema: WebhookAcknowledgement,
      },
      ...errors(400, 401, 404, 413),
    },
    handler: async ({ core, params, req }) => {
      const answer = await core.triggers.receiveWebhook({
        segment: params.provider,
        pathKey: params.pathKey,
        headers: webhookHeaders(req),
        rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
      });
      return 'acknowledged' in answer
        ? { status: 200, body: { status: answer.acknowledged } }
        : { status: statusOfRefusal(answer.code), body: answer };
    },
  }),
];

function webhookHeaders(req: Request): WebhookHeaders {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

import {
  KnowledgeIndexView,
  KnowledgeRefreshAccepted,
  KnowledgeSearchInput,
  KnowledgeSearchResults,
  KnowledgeSourceView,
  KnowledgeSymbolList,
  KnowledgeSymbolsQuery,
  PatchKnowledgeSourceInput,
  RefreshKnowledgeSourceInput,
  TokenUsageQuery,
  UsageReport,
} from '@margin/core/schemas';
import { z } from 'zod';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { ClientParams } from './params.js';

const TAG = 'Code knowledge';
const id = z.string().min(1).max(100);
const SourceParams = z.object({ clientId: id, sourceId: id });
const SOURCE = '/admin/clients/{clientId}/knowledge/sources/{sourceId}';

/** Code knowledge beyond creating and listing sources: editing, the index, search and symbols. */
export const knowledgeRoutes: RouteSpec[] = [
  route({
    method: 'patch',
    path: SOURCE,
    group: 'knowledge',
    operationId: 'patchKnowledgeSource',
    summary: 'Change a code-knowledge source’s name, root path, symbol mode or tracked branches (ClientAdministrator)',
    tag: TAG,
    params: SourceParams,
    body: PatchKnowledgeSourceInput,
    responses: { 200: { description: 'The source.', schema: KnowledgeSourceView }, ...errors(400, 403, 404) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.knowledge.patchKnowledgeSource(actor, params.clientId, params.sourceId, body),
    }),
  }),
  route({
    method: 'delete',
    path: SOURCE,
    group: 'knowledge',
    operationId: 'deleteKnowledgeSource',
    summary: 'Remove a code-knowledge source and its index (ClientAdministrator)',
    tag: TAG,
    params: SourceParams,
    responses: { 204: { description: 'Deleted, index and all.' }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => {
      await core.knowledge.deleteKnowledgeSource(actor, params.clientId, params.sourceId);
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: `${SOURCE}/refresh`,
    group: 'knowledge',
    operationId: 'refreshKnowledgeSource',
    summary: 'Queue a refresh of one tracked branch, or of every one (ClientAdministrator)',
    tag: TAG,
    params: SourceParams,
    body: RefreshKnowledgeSourceInput,
    responses: {
      202: { description: 'Queued; the worker indexes.', schema: KnowledgeRefreshAccepted },
      ...errors(400, 403, 404),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 202,
      body: await core.knowledge.refreshKnowledgeSource(actor, params.clientId, params.sourceId, body),
    }),
  }),
  route({
    method: 'get',
    path: `${SOURCE}/index`,
    group: 'knowledge',
    operationId: 'getKnowledgeIndex',
    summary: 'Each tracked branch’s index: status, indexed commit and counts (ClientUser)',
    tag: TAG,
    params: SourceParams,
    responses: { 200: { description: 'The index state.', schema: KnowledgeIndexView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.knowledge.getKnowledgeIndex(actor, params.clientId, params.sourceId),
    }),
  }),
  route({
    method: 'post',
    path: '/admin/clients/{clientId}/knowledge/search',
    group: 'knowledge',
    operationId: 'searchKnowledge',
    summary: 'Search the client’s indexed code by words, meaning and symbol names (ClientUser)',
    tag: TAG,
    params: ClientParams,
    body: KnowledgeSearchInput,
    responses: {
      200: { description: 'Best first.', schema: KnowledgeSearchResults },
      ...errors(400, 403, 404, 409),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.knowledge.searchKnowledge(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/clients/{clientId}/knowledge/symbols',
    group: 'knowledge',
    operationId: 'listKnowledgeSymbols',
    summary: 'Definitions by name: exact first, then by prefix (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: KnowledgeSymbolsQuery,
    responses: { 200: { description: 'The definitions.', schema: KnowledgeSymbolList }, ...errors(400, 403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.knowledge.listKnowledgeSymbols(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/clients/{clientId}/knowledge/token-usage',
    // The usage ledger's report, so spend answers it (and the SDK finds it beside token-usage).
    group: 'spend',
    operationId: 'knowledgeTokenUsage',
    summary: 'Tokens and estimated cost of indexing and knowledge queries only (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: TokenUsageQuery,
    responses: { 200: { description: 'The usage report.', schema: UsageReport }, ...errors(400, 403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.spend.knowledgeTokenUsage(actor, params.clientId, query),
    }),
  }),
];

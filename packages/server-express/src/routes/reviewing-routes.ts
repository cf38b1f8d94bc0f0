import {
  BlockInput,
  BlockList,
  BlockView,
  ConversationList,
  ConversationListQuery,
  DismissalList,
  DismissalView,
  DismissInput,
  FindingListQuery,
  JobAccepted,
  JobList,
  JobListQuery,
  JobMoved,
  JobStatusView,
  ProtocolQuery,
  ProtocolView,
  PullRequestFindingsQuery,
  PullRequestFindingsView,
  StoredFindingList,
  SubmitJobInput,
  Unblocked,
  UnblockInput,
} from '@margin/core/schemas';
import { z } from 'zod';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { ClientParams, DismissalParams, JobParams, PageQuery } from './params.js';

const TAG = 'Reviewing';

export const reviewingRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/clients/{clientId}/reviewing/findings',
    group: 'reviewing',
    operationId: 'listReviewFindings',
    summary: 'Findings posted on the client’s pull requests, followed across pushes (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: FindingListQuery.extend({ limit: z.coerce.number().int().min(1).max(200).optional() }),
    responses: {
      200: { description: 'A page of findings, most recently changed first.', schema: StoredFindingList },
      ...errors(400, 403, 404),
    },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.reviewing.listReviewFindings(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/reviewing/pull-requests/findings',
    group: 'reviewing',
    operationId: 'getPullRequestFindings',
    summary: 'Where one pull request stands: findings by state and its last review (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: PullRequestFindingsQuery,
    responses: {
      200: { description: 'The pull request’s findings.', schema: PullRequestFindingsView },
      ...errors(400, 403, 404),
    },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.reviewing.getPullRequestFindings(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/reviewing/jobs',
    group: 'reviewing',
    operationId: 'submitReviewJob',
    summary: 'Queue a review of a pull request (ClientAdministrator)',
    tag: TAG,
    params: ClientParams,
    body: SubmitJobInput,
    responses: {
      202: { description: 'Queued; poll the job status.', schema: JobAccepted },
      ...errors(403, 404, 409, 503),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 202,
      body: await core.reviewing.submitReviewJob(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/reviewing/jobs',
    group: 'reviewing',
    operationId: 'listReviewJobs',
    summary: 'The client’s review jobs, newest first (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: JobListQuery.extend({ limit: z.coerce.number().int().min(1).max(200).optional() }),
    responses: { 200: { description: 'A page of jobs without their findings.', schema: JobList }, ...errors(403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.reviewing.listReviewJobs(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/reviewing/jobs/{jobId}/status',
    group: 'reviewing',
    operationId: 'getReviewJobStatus',
    summary: 'A review job’s status, progress, result and usage (ClientUser)',
    tag: TAG,
    params: JobParams,
    responses: { 200: { description: 'The job.', schema: JobStatusView }, ...errors(404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.reviewing.getReviewJobStatus(actor, params.jobId),
    }),
  }),
  route({
    method: 'post',
    path: '/reviewing/jobs/{jobId}/restart',
    group: 'reviewing',
    operationId: 'restartReviewJob',
    summary: 'Queue a failed job again as its next attempt (ClientUser)',
    tag: TAG,
    params: JobParams,
    responses: { 202: { description: 'Queued again.', schema: JobMoved }, ...errors(403, 404, 409, 503) },
    handler: async ({ core, actor, params }) => ({
      status: 202,
      body: await core.reviewing.restartReviewJob(actor, params.jobId),
    }),
  }),
  route({
    method: 'post',
    path: '/reviewing/jobs/{jobId}/stop',
    group: 'reviewing',
    operationId: 'stopReviewJob',
    summary: 'Stop a queued or running job for good (ClientAdministrator)',
    tag: TAG,
    params: JobParams,
    responses: { 200: { description: 'Stopped.', schema: JobMoved }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.reviewing.stopReviewJob(actor, params.jobId),
    }),
  }),
  route({
    method: 'get',
    path: '/jobs/{jobId}/protocol',
    group: 'reviewing',
    operationId: 'getReviewJobProtocol',
    summary: 'The review’s protocol: passes per stage with their categorised events (ClientUser)',
    tag: TAG,
    params: JobParams,
    query: ProtocolQuery,
    responses: {
      200: {
        description:
          'A page of passes in start order, each with its events. When more passes follow, the `X-Next-Cursor` header carries the `cursor` for the next page.',
        schema: ProtocolView,
      },
      ...errors(400, 404),
    },
    handler: async ({ core, actor, params, req }) => {
      // The decided answer is an array of passes, so the next page's cursor travels in a header.
      const page = await core.reviewing.getReviewJobProtocol(actor, params.jobId, req.query);
      const headers: Record<string, string> = page.nextCursor ? { 'X-Next-Cursor': page.nextCursor } : {};
      return { status: 200, body: page.items, headers };
    },
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/reviewing/conversations',
    group: 'reviewing',
    operationId: 'listConversations',
    summary: 'Mentions of Margin in pull request comments and what it answered (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: ConversationListQuery,
    responses: {
      200: { description: 'A page of conversations, newest first.', schema: ConversationList },
      ...errors(400, 403, 404),
    },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.reviewing.listConversations(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/reviewing/blocked-prs',
    group: 'reviewing',
    operationId: 'listBlockedPullRequests',
    summary: 'Pull requests blocked from review (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: PageQuery,
    responses: {
      200: { description: 'A page of current blocks, newest first.', schema: BlockList },
      ...errors(400, 403, 404),
    },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.reviewing.listBlockedPullRequests(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/reviewing/blocked-prs',
    group: 'reviewing',
    operationId: 'blockPullRequest',
    summary: 'Block a pull request from review; idempotent (ClientAdministrator)',
    tag: TAG,
    params: ClientParams,
    body: BlockInput,
    responses: {
      200: { description: 'The block (the existing one when already blocked).', schema: BlockView },
      ...errors(403, 404),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.reviewing.blockPullRequest(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/reviewing/blocked-prs/unblock',
    group: 'reviewing',
    operationId: 'unblockPullRequest',
    summary: 'Lift a block (ClientAdministrator)',
    tag: TAG,
    params: ClientParams,
    body: UnblockInput,
    responses: {
      200: {
        description: 'Unblocked (`unblocked: false` when it was not blocked).',
        schema: Unblocked,
      },
      ...errors(403, 404),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.reviewing.unblockPullRequest(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/reviewing/dismiss-finding',
    group: 'reviewing',
    operationId: 'dismissFinding',
    summary: 'Remember a dismissed finding so later reviews suppress similar ones (ClientAdministrator)',
    tag: TAG,
    params: ClientParams,
    body: DismissInput,
    responses: { 201: { description: 'The stored record.', schema: DismissalView }, ...errors(403, 404) },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.reviewing.dismissFinding(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/reviewing/dismissals',
    group: 'reviewing',
    operationId: 'listDismissals',
    summary: 'Dismissed findings, newest first (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: PageQuery,
    responses: { 200: { description: 'A page of dismissals.', schema: DismissalList }, ...errors(400, 403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.reviewing.listDismissals(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'delete',
    path: '/clients/{clientId}/reviewing/dismissals/{dismissalId}',
    group: 'reviewing',
    operationId: 'deleteDismissal',
    summary: 'Forget a dismissed finding (ClientAdministrator)',
    tag: TAG,
    params: DismissalParams,
    responses: { 204: { description: 'Forgotten.' }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => {
      await core.reviewing.deleteDismissal(actor, params.clientId, params.dismissalId);
      return { status: 204 };
    },
  }),
];

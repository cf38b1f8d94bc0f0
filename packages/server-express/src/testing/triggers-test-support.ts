/**
 * Test support for the trigger tests: the providers' recorded webhook payloads, deliveries signed the
 * way each family signs them, and clients set up with a connection and scope on the provider fakes.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import {
  ADO_PROJECT,
  ADO_REPOSITORY_ID,
  BITBUCKET_REPO_UUID,
  GH_REPOSITORY_ID,
  GITLAB_PROJECT_ID,
} from '@margin/providers/testing';
import type { TestApi } from './index.js';
import type { ScmFakes } from './scm-test-support.js';

export type FamilyName = 'github' | 'ado' | 'gitlab' | 'bitbucket';
export const FAMILIES: FamilyName[] = ['github', 'ado', 'gitlab', 'bitbucket'];

const FIXTURE_DIRS: Record<FamilyName, string> = {
  github: 'github',
  ado: 'azure-devops',
  gitlab: 'gitlab',
  bitbucket: 'bitbucket',
};

/** A provider's recorded payload, as text (the exact bytes matter for signatures). */
export function fixtureText(family: FamilyName, name: string): string {
  return readFileSync(
    new URL(`../../../providers/src/scm/${FIXTURE_DIRS[family]}/__fixtures__/${name}`, import.meta.url),
    'utf8',
  );
}

export interface FamilyFacts {
  provider: 'gitHostA' | 'suiteDevOps' | 'gitHostB' | 'gitHostC';
  segment: string;
  projectKey: string;
  repositoryId: string;
  /** The fixture of an opened pull request (PR 42 of the fake's repository). */
  opened: string;
  /** An update of the same pull request, with another delivery id. */
  updated: string;
  /** The same pull request, closed or merged. */
  closed: string;
  /** An event the receiver does not classify. */
  unknown: string;
}

export const FACTS: Record<FamilyName, FamilyFacts> = {
  github: {
    provider: 'gitHostA',
    segment: 'gitHostA',
    projectKey: 'acme',
    repositoryId: GH_REPOSITORY_ID,
    opened: 'webhook-pull-request-opened.json',
    updated: 'webhook-pull-request-synchronize.json',
    closed: 'webhook-pull-request-closed.json',
    unknown: 'webhook-push.json',
  },
  ado: {
    provider: 'suiteDevOps',
    segment: 'devopsA',
    projectKey: ADO_PROJECT,
    repositoryId: ADO_REPOSITORY_ID,
    opened: 'webhook-pull-request-created.json',
    updated: 'webhook-pull-request-updated.json',
    closed: 'webhook-pull-request-updated-abandoned.json',
    unknown: 'webhook-git-push.json',
  },
  gitlab: {
    provider: 'gitHostB',
    segment: 'gitHostB',
    projectKey: 'acme',
    repositoryId: String(GITLAB_PROJECT_ID),
    opened: 'hook-merge-request-open.json',
    updated: 'hook-merge-request-update.json',
    closed: 'hook-merge-request-close.json',
    unknown: 'hook-push.json',
  },
  bitbucket: {
    provider: 'gitHostC',
    segment: 'gitHostC',
    projectKey: 'acme',
    repositoryId: BITBUCKET_REPO_UUID,
    opened: 'hook-pullrequest-created.json',
    updated: 'hook-pullrequest-updated.json',
    closed: 'hook-pullrequest-rejected.json',
    unknown: 'hook-repo-push.json',
  },
};

/** The event header each family sends with a fixture. */
function eventHeaders(family: FamilyName, fixture: string, deliveryId: string): Record<string, string> {
  switch (family) {
    case 'github': {
      const event = fixture.includes('push')
        ? 'push'
        : fixture.includes('issue-comment')
          ? 'issue_comment'
          : fixture.includes('ping')
            ? 'ping'
            : 'pull_request';
      return { 'x-github-event': event, 'x-github-delivery': deliveryId };
    }
    case 'gitlab': {
      const event = fixture.includes('push')
        ? 'Push Hook'
        : fixture.includes('note')
          ? 'Note Hook'
          : 'Merge Request Hook';
      return { 'x-gitlab-event': event, 'x-gitlab-event-uuid': deliveryId };
    }
    case 'bitbucket': {
      const key = fixture.includes('repo-push')
        ? 'repo:push'
        : `pullrequest:${fixture
            .replace(/^hook-pullrequest-/, '')
            .replace(/\.json$/, '')
            .replace(/-/g, '_')}`;
      return { 'x-event-key': key, 'x-request-uuid': deliveryId };
    }
    case 'ado':
      return {};
  }
}

/** Headers that authenticate `body` for the family with `secret`. */
export function authHeaders(family: FamilyName, body: string, secret: string): Record<string, string> {
  const hmac = () => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  switch (family) {
    case 'github':
      return { 'x-hub-signature-256': hmac() };
    case 'bitbucket':
      return { 'x-hub-signature': hmac() };
    case 'gitlab':
      return { 'x-gitlab-token': secret };
    case 'ado':
      return { authorization: `Basic ${Buffer.from(`margin-hook:${secret}`).toString('base64')}` };
  }
}

export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

/**
 * A delivery of a fixture, signed with `secret`. ADO deliveries carry their id in the body, so a
 * fresh `deliveryId` is written into it; the others carry it in a header.
 */
// Payloads are the providers' free-form JSON; tests edit them by path.
type Payload = Record<string, any>;

export function delivery(
  family: FamilyName,
  fixture: string,
  secret: string,
  options: { deliveryId?: string; edit?: (payload: Payload) => void } = {},
): Delivery {
  const deliveryId = options.deliveryId ?? randomUUID();
  let body = fixtureText(family, fixture);
  if (family === 'ado' || options.edit) {
    const payload = JSON.parse(body);
    if (family === 'ado') payload.id = deliveryId;
    options.edit?.(payload);
    body = JSON.stringify(payload);
  }
  return {
    body,
    headers: {
      'content-type': 'application/json',
      ...eventHeaders(family, fixture, deliveryId),
      ...authHeaders(family, body, secret),
    },
  };
}

/** Posts a delivery to the gateway's own `/webhooks/...` path, as a provider would. */
export async function post(url: string, d: Delivery): Promise<{ status: number; body: Payload; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: d.headers, body: d.body });
  const text = await res.text();
  let body: Payload = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, body, text };
}

/** A new client with a connection and an organization scope on the family's fake. */
export async function scopedClient(
  admin: TestApi,
  fakes: ScmFakes,
  family: FamilyName,
  name: string,
  tenantId = SYSTEM_TENANT_ID,
) {
  const client = await admin.post('/clients', { displayName: name, tenantId });
  if (client.status !== 201) throw new Error(`client: ${client.status} ${JSON.stringify(client.body)}`);
  const clientId = client.body.id as string;
  const body = {
    github: fakes.bodies.github(),
    ado: fakes.bodies.adoPat(),
    gitlab: fakes.bodies.gitlab(),
    bitbucket: fakes.bodies.bitbucket(),
  }[family];
  const connection = await admin.post(`/clients/${clientId}/provider-connections`, body);
  if (connection.status !== 201) throw new Error(`connection: ${connection.status} ${JSON.stringify(connection.body)}`);
  const scope = await admin.post(`/clients/${clientId}/provider-connections/${connection.body.id}/scopes`, {
    scopeType: 'organization',
    scopePath: fakes.scopePaths[family],
  });
  if (scope.status !== 201) throw new Error(`scope: ${scope.status} ${JSON.stringify(scope.body)}`);
  return {
    clientId,
    connectionId: connection.body.id as string,
    scopeId: scope.body.id as string,
    scopePath: fakes.scopePaths[family],
  };
}

/** A repository filter for the family's fake repository. */
export function repoFilter(family: FamilyName, targetBranchPatterns: string[] = []) {
  return {
    repositoryName: 'uploader',
    displayName: 'Uploader',
    canonicalSourceRef: { provider: FACTS[family].provider, value: FACTS[family].repositoryId },
    targetBranchPatterns,
  };
}

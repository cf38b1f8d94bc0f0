import { readFileSync } from 'node:fs';
import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import {
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';
import type { GlDiff, GlDiscussion, GlMergeRequest, GlNote, GlPosition, GlVersion } from './gitlab-wire.js';

/**
 * A stateful GitLab REST v4 fake serving the contract scenario in GitLab's own shapes, built from the
 * recorded-shape fixtures in `__fixtures__/`. It pages like GitLab (`per_page` default 20, at most
 * 100, `x-next-page` and friends), answers GitLab's error bodies, keeps the discussions it is sent and
 * checks inline positions the way GitLab does before accepting them.
 */

export const GITLAB_TOKEN = 'glpat-contract-good-token-0001';
export const GITLAB_BAD_TOKEN = 'glpat-contract-bad-token-9999';
export const PROJECT_ID = 1001;
export const OLD_HEAD_SHA = '3333333333333333333333333333333333333333';
export const TOO_LARGE_PATH = 'src/file-010.ts';
/** A line GitLab refuses to place (outside the diff), for the fallback path. */
export const UNPLACEABLE_LINE = 9_999;

const s = SCM_CONTRACT_SCENARIO;

export function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), 'utf8')) as T;
}

/** Contents by `<sha>:<path>`. */
const FILE_002_BASE = Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n');
const FILE_002_HEAD = [
  'line 1',
  'line 2',
  'line 3',
  'line 4',
  'line 5',
  'line 6 new',
  'line 6',
  'line 7',
  'line 8',
].join('\n');
export const FILES: Record<string, string> = {
  [`${s.pullRequest.baseSha}:${s.contentPath}`]: s.baseContent,
  [`${s.pullRequest.headSha}:${s.contentPath}`]: s.headContent,
  [`${s.pullRequest.baseSha}:src/file-002.ts`]: `${FILE_002_BASE}\n`,
  [`${s.pullRequest.headSha}:src/file-002.ts`]: `${FILE_002_HEAD}\n`,
  [`${s.pullRequest.baseSha}:${TOO_LARGE_PATH}`]: 'a\nb\nc\n',
  [`${s.pullRequest.headSha}:${TOO_LARGE_PATH}`]: 'a\nB\nc\n',
};

function scenarioDiffs(): GlDiff[] {
  const template = fixture<GlDiff>('merge-request-diff');
  return s.changedFiles.map((file) => {
    const oldPath = ('previousPath' in file ? file.previousPath : undefined) ?? file.path;
    const entry: GlDiff = {
      ...template,
      old_path: oldPath,
      new_path: file.path,
      new_file: file.changeType === 'added',
      deleted_file: file.changeType === 'deleted',
      renamed_file: file.changeType === 'renamed',
      diff: '@@ -1 +1 @@\n-old\n+new\n',
    };
    if (file.changeType === 'added') entry.diff = '@@ -0,0 +1 @@\n+# New\n';
    if (file.changeType === 'deleted') entry.diff = '@@ -1 +0,0 @@\n-legacy\n';
    if (file.changeType === 'renamed') entry.diff = '';
    if (file.path === s.contentPath) entry.diff = template.diff;
    if (file.path === 'src/file-002.ts')
      entry.diff = '@@ -3,4 +3,5 @@\n line 3\n line 4\n line 5\n+line 6 new\n line 6\n';
    if (file.path === TOO_LARGE_PATH) return { ...fixture<GlDiff>('merge-request-diff-too-large') };
    return entry;
  });
}

function mergeRequests(): GlMergeRequest[] {
  const main = fixture<GlMergeRequest>('merge-request');
  const other = fixture<GlMergeRequest>('merge-request-list-item');
  const closed: GlMergeRequest = {
    ...other,
    id: 93003,
    iid: s.closedPullRequest.number,
    title: s.closedPullRequest.title,
    source_branch: s.closedPullRequest.sourceBranch,
    state: 'closed',
    sha: '5555555555555555555555555555555555555555',
    references: { full: `acme/uploader!${s.closedPullRequest.number}` },
  };
  return [main, other, closed];
}

export interface GitLabFake {
  server: FakeHttpServer;
  /** `hostBaseUrl` of a connection to the fake. */
  hostBaseUrl: string;
  discussions: GlDiscussion[];
  /** Bodies of every POST to `/discussions`, as GitLab received them. */
  postedDiscussions: unknown[];
  throttleNext(): void;
  close(): Promise<void>;
}

export async function startGitLabFake(): Promise<GitLabFake> {
  // Read at start, not import, so importing the testing entry never touches the file system.
  const errors = fixture<Record<string, unknown>>('errors');
  const server = await startFakeHttpServer();
  const diffs = scenarioDiffs();
  const mrs = mergeRequests();
  const discussions: GlDiscussion[] = [fixture('discussion-system-note'), fixture('discussion-diff-note')];
  const postedDiscussions: unknown[] = [];
  const me = fixture<{ id: number; username: string; name: string }>('user');
  let nextNoteId = 5000;
  let nextDiscussion = 1;

  const api = (method: string, path: string, handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>) =>
    server.on(method, `/api/v4${path}`, (req) =>
      req.headers['private-token'] === GITLAB_TOKEN ? handler(req) : { status: 401, json: errors.unauthorized },
    );
  const findMr = (req: FakeRequest) =>
    Number(req.params.id) === PROJECT_ID ? mrs.find((mr) => mr.iid === Number(req.params.iid)) : undefined;
  const notFound: FakeReply = { status: 404, json: errors.mergeRequestNotFound };
  const newNote = (body: string, extra: Partial<GlNote>): GlNote => ({
    ...fixture<GlNote>('note'),
    id: nextNoteId++,
    body,
    author: me,
    ...extra,
  });

  api('GET', '/user', () => ({ json: me }));
  api('GET', '/projects/:id/merge_requests/:iid', (req) => {
    const mr = findMr(req);
    return mr ? { json: mr } : notFound;
  });
  api('GET', '/projects/:id/merge_requests/:iid/versions', (req) => {
    const mr = findMr(req);
    if (!mr) return notFound;
    const versions = fixture<GlVersion[]>('merge-request-versions');
    if (mr.iid !== s.pullRequest.number) {
      const [newest] = versions;
      return paged(req, newest ? [{ ...newest, id: mr.iid * 10, head_commit_sha: mr.sha ?? '' }] : []);
    }
    return paged(req, versions);
  });
  api('GET', '/projects/:id/merge_requests/:iid/diffs', (req) => (findMr(req) ? paged(req, diffs) : notFound));
  api('GET', '/projects/:id/repository/compare', (req) => {
    if (req.query.get('to') !== OLD_HEAD_SHA) return { status: 404, json: { message: '404 Commit Not Found' } };
    return {
      json: { commit: null, commits: [], diffs: diffs.slice(0, 228), compare_timeout: false, compare_same_ref: false },
    };
  });
  api('GET', '/projects/:id/repository/files/:path/raw', (req) => {
    const text = FILES[`${req.query.get('ref')}:${req.params.path}`];
    return text === undefined
      ? { status: 404, json: errors.fileNotFound }
      : { text, headers: { 'content-type': 'text/plain; charset=utf-8' } };
  });
  api('GET', '/projects/:id/merge_requests/:iid/discussions', (req) =>
    findMr(req) ? paged(req, discussions) : notFound,
  );
  api('POST', '/projects/:id/merge_requests/:iid/discussions', (req) => {
    if (!findMr(req)) return notFound;
    postedDiscussions.push(req.json);
    const body = req.json as { body?: string; position?: Record<string, unknown> };
    if (!body.body) return { status: 400, json: { error: 'body is missing' } };
    if (body.position && !positionIsPlaceable(body.position, diffs))
      return { status: 400, json: errors.invalidPosition };
    const position = body.position ? ({ old_line: null, ...body.position } as GlPosition) : null;
    const note = newNote(body.body, {
      type: position ? 'DiffNote' : 'DiscussionNote',
      resolvable: true,
      resolved: false,
      position,
    });
    const discussion: GlDiscussion = {
      id: `d${String(nextDiscussion++).padStart(39, '0')}`,
      individual_note: false,
      notes: [note],
    };
    discussions.push(discussion);
    return { status: 201, json: discussion };
  });
  api('POST', '/projects/:id/merge_requests/:iid/discussions/:did/notes', (req) => {
    const discussion = discussions.find((d) => d.id === req.params.did);
    if (!findMr(req) || !discussion) return { status: 404, json: { message: '404 Discussion Not Found' } };
    const first = discussion.notes[0];
    const note = newNote((req.json as { body: string }).body, {
      type: first?.type ?? 'DiscussionNote',
      resolvable: true,
      resolved: false,
      position: first?.position ?? null,
    });
    // Replying to a single comment turns it into a thread, as in GitLab.
    if (discussion.individual_note) {
      discussion.individual_note = false;
      for (const n of discussion.notes) Object.assign(n, { type: 'DiscussionNote', resolvable: true, resolved: false });
    }
    discussion.notes.push(note);
    return { status: 201, json: note };
  });
  api('PUT', '/projects/:id/merge_requests/:iid/discussions/:did', (req) => {
    const discussion = discussions.find((d) => d.id === req.params.did);
    if (!findMr(req) || !discussion) return { status: 404, json: { message: '404 Discussion Not Found' } };
    const resolved = (req.json as { resolved?: unknown } | undefined)?.resolved ?? req.query.get('resolved') === 'true';
    if (typeof resolved !== 'boolean') return { status: 400, json: { error: 'resolved is invalid' } };
    if (discussion.individual_note) return { status: 400, json: errors.validation };
    for (const note of discussion.notes) if (note.resolvable) note.resolved = resolved;
    return { json: discussion };
  });
  api('POST', '/projects/:id/merge_requests/:iid/notes', (req) => {
    if (!findMr(req)) return notFound;
    const note = newNote((req.json as { body: string }).body, { type: null, resolvable: false });
    discussions.push({ id: `n${String(nextDiscussion++).padStart(39, '0')}`, individual_note: true, notes: [note] });
    return { status: 201, json: note };
  });
  const listMrs = (req: FakeRequest) =>
    paged(req, mrs.filter((mr) => !req.query.has('state') || mr.state === req.query.get('state')).reverse());
  api('GET', '/projects/:id/merge_requests', (req) =>
    Number(req.params.id) === PROJECT_ID ? listMrs(req) : { status: 404, json: { message: '404 Project Not Found' } },
  );
  const group = fixture<{ id: number; full_path: string; name: string; full_name: string }>('group');
  const subgroup = {
    ...group,
    id: 56,
    name: 'Platform',
    path: 'platform',
    full_name: 'Acme / Platform',
    full_path: 'acme/platform',
    parent_id: 55,
  };
  const groups = [group, subgroup];
  const findGroup = (key: string | undefined) => groups.find((g) => g.full_path === key || String(g.id) === key);
  api('GET', '/groups/:gid/merge_requests', (req) => (findGroup(req.params.gid) ? listMrs(req) : notFound));
  api('GET', '/groups/:gid', (req) => {
    const found = findGroup(req.params.gid);
    return found ? { json: found } : { status: 404, json: { message: '404 Group Not Found' } };
  });
  api('GET', '/groups/:gid/descendant_groups', (req) =>
    paged(req, findGroup(req.params.gid)?.id === group.id ? [subgroup] : []),
  );
  const project = fixture<{ id: number }>('project');
  const projects = [
    project,
    { ...project, id: 1002, name: 'Billing', path: 'billing', path_with_namespace: 'acme/platform/billing' },
  ];
  api('GET', '/groups/:gid/projects', (req) => (findGroup(req.params.gid) ? paged(req, projects) : notFound));
  api('GET', '/projects/:id/repository/branches', (req) => {
    const template = fixture<{ name: string }>('branch');
    return paged(
      req,
      s.branches.map((name) => ({ ...template, name, default: name === 'main' })),
    );
  });
  api('GET', '/users', (req) => {
    const search = (req.query.get('search') ?? '').toLowerCase();
    const people = [
      { id: 7, username: 'ada', name: 'Ada Lovelace', state: 'active', locked: false, avatar_url: null, web_url: '' },
      { id: 8, username: 'grace', name: 'Grace Hopper', state: 'active', locked: false, avatar_url: null, web_url: '' },
    ];
    return paged(
      req,
      people.filter((p) => p.username.includes(search) || p.name.toLowerCase().includes(search)),
    );
  });

  return {
    server,
    hostBaseUrl: server.url,
    discussions,
    postedDiscussions,
    throttleNext() {
      // GitLab's throttle answer: plain text, Retry-After in seconds, RateLimit-Reset as an epoch.
      server.interceptNext({
        status: 429,
        headers: {
          'retry-after': '0',
          'ratelimit-name': 'throttle_authenticated_api',
          'ratelimit-limit': '2000',
          'ratelimit-observed': '2001',
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(Math.floor(Date.now() / 1000) + 1),
          'content-type': 'text/plain',
        },
        text: String(errors.rateLimitedText),
      });
    },
    close: () => server.close(),
  };
}

/** GitLab's offset paging: `page`, `per_page` (default 20, capped at 100) and the `x-*` headers. */
function paged(req: FakeRequest, items: readonly unknown[]): FakeReply {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 20)));
  const page = Math.max(1, Number(req.query.get('page') ?? 1));
  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  const headers: Record<string, string> = {
    'x-page': String(page),
    'x-per-page': String(perPage),
    'x-total': String(items.length),
    'x-total-pages': String(totalPages),
    'x-next-page': page < totalPages ? String(page + 1) : '',
    'x-prev-page': page > 1 ? String(page - 1) : '',
  };
  return { headers, json: items.slice((page - 1) * perPage, page * perPage) };
}

/** GitLab's own checks, enough to catch a malformed position: SHAs of the diff, a changed file, a line code. */
function positionIsPlaceable(position: Record<string, unknown>, diffs: GlDiff[]): boolean {
  const shaOk =
    position.base_sha === s.pullRequest.baseSha &&
    position.start_sha === s.pullRequest.baseSha &&
    position.head_sha === s.pullRequest.headSha;
  const file = diffs.find((d) => d.new_path === position.new_path);
  const line = position.new_line;
  if (position.position_type !== 'text' || !shaOk || !file || typeof line !== 'number') return false;
  if (line === UNPLACEABLE_LINE) return false;
  const range = position.line_range as { start?: Record<string, unknown>; end?: Record<string, unknown> } | undefined;
  if (range === undefined) return true;
  return [range.start, range.end].every(
    (end) =>
      typeof end?.line_code === 'string' &&
      /^[0-9a-f]{40}_\d+_\d+$/.test(end.line_code) &&
      (end.type === 'new' || end.type === 'old') &&
      typeof end.new_line === 'number',
  );
}

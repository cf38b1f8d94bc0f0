import { type PullRequestScenario, type RecordedWrite, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { type CommitStatusBoard, createCommitStatusBoard, isStatusWrite } from '../../testing/commit-statuses.js';
import { contractTreeAt, contractTreeUnder } from '../../testing/contract-tree.js';
import {
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  recordedWrite,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';
import { fixtureSet } from '../../testing/fixtures.js';
import { diffOf, type FileChange, pathOf, ScenarioHistory } from '../../testing/scenario-history.js';
import branchJson from './__fixtures__/branch.json' with { type: 'json' };
import commitStatusJson from './__fixtures__/commit-status.json' with { type: 'json' };
import compareJson from './__fixtures__/compare.json' with { type: 'json' };
import discussionDiffNoteJson from './__fixtures__/discussion-diff-note.json' with { type: 'json' };
import discussionSystemNoteJson from './__fixtures__/discussion-system-note.json' with { type: 'json' };
import errorsJson from './__fixtures__/errors.json' with { type: 'json' };
import groupJson from './__fixtures__/group.json' with { type: 'json' };
import mergeBaseJson from './__fixtures__/merge-base.json' with { type: 'json' };
import mergeRequestJson from './__fixtures__/merge-request.json' with { type: 'json' };
import mergeRequestDiffJson from './__fixtures__/merge-request-diff.json' with { type: 'json' };
import mergeRequestDiffTooLargeJson from './__fixtures__/merge-request-diff-too-large.json' with { type: 'json' };
import mergeRequestListItemJson from './__fixtures__/merge-request-list-item.json' with { type: 'json' };
import mergeRequestVersionsJson from './__fixtures__/merge-request-versions.json' with { type: 'json' };
import noteJson from './__fixtures__/note.json' with { type: 'json' };
import projectJson from './__fixtures__/project.json' with { type: 'json' };
import userJson from './__fixtures__/user.json' with { type: 'json' };
import { lineCode, readDiffLines } from './gitlab-position.js';
import type { GlDiff, GlDiscussion, GlMergeRequest, GlNote, GlPosition, GlRangeEnd, GlVersion } from './gitlab-wire.js';

/**
 * A stateful GitLab REST v4 fake serving the contract scenario in GitLab's own shapes, built from the
 * recorded-shape fixtures in `__fixtures__/`. It pages like GitLab (`per_page` default 20, at most
 * 100, `x-next-page` and friends), answers GitLab's error bodies, keeps the discussions it is sent and
 * checks inline positions the way GitLab does before accepting them: the SHAs must be those of a
 * version of the merge request, the file one of that version's diffs, and `old_line`/`new_line` must
 * name exactly one line of its hunks (an added line has no old line, a removed one no new line).
 *
 * `loadPullRequest(scenario)` serves a merge request computed from file versions: its versions (a
 * push adds one, the earlier ones stay), `diffs[]` with hunk-only `diff` text and GitLab's flags,
 * files at commits and branch tips, `repository/compare` and `repository/merge_base` over the
 * commits the scenarios describe. Positions are not moved forward on a push (GitLab does that for
 * lines that survive), so every DiffNote written before a push reads as outdated afterwards.
 */

const glFixture = fixtureSet({
  branch: branchJson,
  'commit-status': commitStatusJson,
  compare: compareJson,
  'discussion-diff-note': discussionDiffNoteJson,
  'discussion-system-note': discussionSystemNoteJson,
  errors: errorsJson,
  group: groupJson,
  'merge-base': mergeBaseJson,
  'merge-request': mergeRequestJson,
  'merge-request-diff': mergeRequestDiffJson,
  'merge-request-diff-too-large': mergeRequestDiffTooLargeJson,
  'merge-request-list-item': mergeRequestListItemJson,
  'merge-request-versions': mergeRequestVersionsJson,
  note: noteJson,
  project: projectJson,
  user: userJson,
});

export const GITLAB_TOKEN = 'glpat-contract-good-token-0001';
export const GITLAB_BAD_TOKEN = 'glpat-contract-bad-token-9999';
export const PROJECT_ID = 1001;
export const OLD_HEAD_SHA = '3333333333333333333333333333333333333333';
export const TOO_LARGE_PATH = 'src/file-010.ts';
/** A line outside every diff of the contract scenario, which GitLab refuses to place. */
export const UNPLACEABLE_LINE = 9_999;

const s = SCM_CONTRACT_SCENARIO;

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
  const template = glFixture<GlDiff>('merge-request-diff');
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
    if (file.path === TOO_LARGE_PATH) return { ...glFixture<GlDiff>('merge-request-diff-too-large') };
    return entry;
  });
}

function mergeRequests(): GlMergeRequest[] {
  const main = glFixture<GlMergeRequest>('merge-request');
  const other = glFixture<GlMergeRequest>('merge-request-list-item');
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

export interface GitLabFake extends CommitStatusBoard {
  server: FakeHttpServer;
  /** `hostBaseUrl` of a connection to the fake. */
  hostBaseUrl: string;
  /** Discussions of the contract scenario's merge request (!42). */
  discussions: GlDiscussion[];
  /** Every POST, PUT, PATCH and DELETE the fake received (statuses left out), with its parsed body, in order. */
  writes: RecordedWrite[];
  /** Serves a merge request from file versions, or a push to one already loaded. */
  loadPullRequest(scenario: PullRequestScenario): Promise<void>;
  /** From now on every new discussion positioned in this file is refused as GitLab refuses a bad position. */
  refuseThreadsOn(path: string): void;
  throttleNext(): void;
  close(): Promise<void>;
}

interface MergeRequestState {
  mr: GlMergeRequest;
  /** Newest first, as GitLab lists them. */
  versions: GlVersion[];
  diffsOf: Map<number, GlDiff[]>;
  discussions: GlDiscussion[];
}

export async function startGitLabFake(): Promise<GitLabFake> {
  // Read at start, not import, so importing the testing entry never touches the file system.
  const errors = glFixture<Record<string, unknown>>('errors');
  const server = await startFakeHttpServer();
  const history = new ScenarioHistory();
  const legacyDiffs = scenarioDiffs();
  const legacyVersions = glFixture<GlVersion[]>('merge-request-versions');
  const states = new Map<number, MergeRequestState>();
  for (const mr of mergeRequests()) {
    const isMain = mr.iid === s.pullRequest.number;
    const [newest] = legacyVersions;
    const versions = isMain
      ? legacyVersions
      : newest
        ? [{ ...newest, id: mr.iid * 10, head_commit_sha: mr.sha ?? '' }]
        : [];
    const diffsOf = new Map<number, GlDiff[]>(versions.map((v) => [v.id, legacyDiffs]));
    // The older version of !42 (head 3333…) had two files fewer.
    if (isMain) diffsOf.set(7, legacyDiffs.slice(0, 228));
    const discussions: GlDiscussion[] = isMain
      ? [glFixture('discussion-system-note'), glFixture('discussion-diff-note')]
      : [];
    states.set(mr.iid, { mr, versions, diffsOf, discussions });
  }
  const writes: RecordedWrite[] = [];
  const refused = new Set<string>();
  const me = glFixture<{ id: number; username: string; name: string }>('user');
  let nextNoteId = 5000;
  let nextDiscussion = 1;
  let nextVersionId = 100;

  const api = (method: string, path: string, handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>) =>
    server.on(method, `/api/v4${path}`, (req) => {
      const write = recordedWrite(req);
      if (write && !isStatusWrite(req)) writes.push(write);
      return req.headers['private-token'] === GITLAB_TOKEN ? handler(req) : { status: 401, json: errors.unauthorized };
    });
  const stateOf = (req: FakeRequest) =>
    Number(req.params.id) === PROJECT_ID ? states.get(Number(req.params.iid)) : undefined;
  const findMr = (req: FakeRequest) => stateOf(req)?.mr;
  const notFound: FakeReply = { status: 404, json: errors.mergeRequestNotFound };
  const discussionNotFound: FakeReply = { status: 404, json: { message: '404 Discussion Not Found' } };
  const newNote = (body: string, extra: Partial<GlNote>): GlNote => ({
    ...glFixture<GlNote>('note'),
    id: nextNoteId++,
    body,
    author: me,
    ...extra,
  });
  const findNote = (state: MergeRequestState, noteId: number) =>
    state.discussions.flatMap((d) => d.notes).find((n) => n.id === noteId);

  api('GET', '/user', () => ({ json: me }));
  // Commit statuses: GitLab's states only, recorded; 403 for a token without the right while refused.
  const statusBoard = createCommitStatusBoard(() => ({ status: 403, json: errors.forbidden }));
  const STATUS_STATES = new Set(['pending', 'running', 'success', 'failed', 'canceled']);
  api('POST', '/projects/:id/statuses/:sha', (req) => {
    if (Number(req.params.id) !== PROJECT_ID) return { status: 404, json: { message: '404 Project Not Found' } };
    const body = (req.json ?? {}) as { state?: string; name?: string; description?: string; target_url?: string };
    if (!STATUS_STATES.has(body.state ?? '')) return { status: 400, json: errors.invalidState };
    const sha = req.params.sha ?? '';
    return statusBoard.receive(
      {
        commit: sha,
        name: body.name ?? 'default',
        state: body.state ?? '',
        description: body.description,
        targetUrl: body.target_url,
        body: req.json,
      },
      () => ({
        status: 201,
        json: {
          ...glFixture<object>('commit-status'),
          sha,
          status: body.state,
          name: body.name ?? 'default',
          description: body.description ?? null,
          target_url: body.target_url ?? null,
        },
      }),
    );
  });
  api('GET', '/projects/:id/merge_requests/:iid', (req) => {
    const mr = findMr(req);
    return mr ? { json: mr } : notFound;
  });
  api('GET', '/projects/:id/merge_requests/:iid/versions', (req) => {
    const state = stateOf(req);
    return state ? paged(req, state.versions) : notFound;
  });
  // `/diffs` always describes the newest version.
  api('GET', '/projects/:id/merge_requests/:iid/diffs', (req) => {
    const state = stateOf(req);
    if (!state) return notFound;
    const newest = state.versions[0];
    return paged(req, (newest && state.diffsOf.get(newest.id)) ?? []);
  });
  api('GET', '/projects/:id/repository/compare', async (req) => {
    const from = req.query.get('from') ?? '';
    const to = req.query.get('to') ?? '';
    if (history.hasCommit(from) && history.hasCommit(to)) {
      const base = req.query.get('straight') === 'true' ? from : history.mergeBase(from, to);
      const diffs = base === undefined ? [] : await Promise.all(history.changesBetween(base, to).map(glDiff));
      return {
        json: {
          ...glFixture<object>('compare'),
          commits: [],
          diffs,
          compare_timeout: false,
          compare_same_ref: from === to,
        },
      };
    }
    if (to !== OLD_HEAD_SHA) return { status: 404, json: { message: '404 Commit Not Found' } };
    return {
      json: {
        commit: null,
        commits: [],
        diffs: legacyDiffs.slice(0, 228),
        compare_timeout: false,
        compare_same_ref: false,
      },
    };
  });
  api('GET', '/projects/:id/repository/merge_base', (req) => {
    const refs = req.query.getAll('refs[]');
    if (refs.length < 2) return { status: 400, json: { message: 'Provide at least 2 refs' } };
    const unknown = refs.filter((r) => !history.hasCommit(r));
    if (unknown.length > 0) return { status: 400, json: { message: `Could not find refs: ${unknown.join(', ')}` } };
    const base = history.mergeBase(refs[0] as string, refs[1] as string);
    if (base === undefined) return { status: 404, json: errors.mergeBaseNotFound };
    return { json: { ...glFixture<object>('merge-base'), id: base, short_id: base.slice(0, 8), parent_ids: [] } };
  });
  api('GET', '/projects/:id/repository/files/:path/raw', (req) => {
    const version = req.query.get('ref') ?? '';
    const path = req.params.path ?? '';
    const known = history.fileAt(history.refOf(version), path);
    if (known) return { text: known.bytes.toString('utf8'), headers: { 'content-type': 'text/plain; charset=utf-8' } };
    const text = FILES[`${version}:${path}`];
    return text === undefined
      ? { status: 404, json: errors.fileNotFound }
      : { text, headers: { 'content-type': 'text/plain; charset=utf-8' } };
  });
  api('GET', '/projects/:id/merge_requests/:iid/discussions', (req) => {
    const state = stateOf(req);
    return state ? paged(req, state.discussions) : notFound;
  });
  api('POST', '/projects/:id/merge_requests/:iid/discussions', (req) => {
    const state = stateOf(req);
    if (!state) return notFound;
    const body = req.json as { body?: string; position?: Record<string, unknown> };
    if (!body.body) return { status: 400, json: { error: 'body is missing' } };
    if (body.position) {
      const path = body.position.new_path ?? body.position.old_path;
      if (refused.has(String(path)) || !placeable(body.position, state)) {
        return { status: 400, json: errors.invalidPosition };
      }
    }
    const position = body.position ? ({ old_line: null, new_line: null, ...body.position } as GlPosition) : null;
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
    state.discussions.push(discussion);
    return { status: 201, json: discussion };
  });
  api('POST', '/projects/:id/merge_requests/:iid/discussions/:did/notes', (req) => {
    const discussion = stateOf(req)?.discussions.find((d) => d.id === req.params.did);
    if (!discussion) return discussionNotFound;
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
    const discussion = stateOf(req)?.discussions.find((d) => d.id === req.params.did);
    if (!discussion) return discussionNotFound;
    const resolved = (req.json as { resolved?: unknown } | undefined)?.resolved ?? req.query.get('resolved') === 'true';
    if (typeof resolved !== 'boolean') return { status: 400, json: { error: 'resolved is invalid' } };
    if (discussion.individual_note) return { status: 400, json: errors.validation };
    for (const note of discussion.notes) if (note.resolvable) note.resolved = resolved;
    return { json: discussion };
  });
  const editNote = (req: FakeRequest): FakeReply => {
    const state = stateOf(req);
    if (!state) return notFound;
    const note = findNote(state, Number(req.params.nid));
    const inDiscussion = req.params.did === undefined || state.discussions.some((d) => d.id === req.params.did);
    if (!note || !inDiscussion) return { status: 404, json: errors.noteNotFound };
    const body = (req.json as { body?: unknown } | undefined)?.body;
    if (typeof body !== 'string' || !body) return { status: 400, json: { error: 'body is missing' } };
    note.body = body;
    return { json: note };
  };
  api('PUT', '/projects/:id/merge_requests/:iid/notes/:nid', editNote);
  api('PUT', '/projects/:id/merge_requests/:iid/discussions/:did/notes/:nid', editNote);
  api('POST', '/projects/:id/merge_requests/:iid/notes', (req) => {
    const state = stateOf(req);
    if (!state) return notFound;
    const note = newNote((req.json as { body: string }).body, { type: null, resolvable: false });
    state.discussions.push({
      id: `n${String(nextDiscussion++).padStart(39, '0')}`,
      individual_note: true,
      notes: [note],
    });
    return { status: 201, json: note };
  });
  const listMrs = (req: FakeRequest) =>
    paged(
      req,
      [...states.values()]
        .map((st) => st.mr)
        .filter((mr) => !req.query.has('state') || mr.state === req.query.get('state'))
        .reverse(),
    );
  api('GET', '/projects/:id/merge_requests', (req) =>
    Number(req.params.id) === PROJECT_ID ? listMrs(req) : { status: 404, json: { message: '404 Project Not Found' } },
  );
  const group = glFixture<{ id: number; full_path: string; name: string; full_name: string }>('group');
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
  const project = glFixture<{ id: number }>('project');
  const projects = [
    project,
    { ...project, id: 1002, name: 'Billing', path: 'billing', path_with_namespace: 'acme/platform/billing' },
  ];
  api('GET', '/groups/:gid/projects', (req) => (findGroup(req.params.gid) ? paged(req, projects) : notFound));
  api('GET', '/projects/:id/repository/branches', (req) => {
    const template = glFixture<{ name: string }>('branch');
    return paged(
      req,
      s.branches.map((name) => ({ ...template, name, default: name === 'main' })),
    );
  });
  api('GET', '/projects/:id/repository/branches/:branch', (req) => {
    const head = (s.branchHeads as Record<string, string>)[req.params.branch ?? ''];
    if (Number(req.params.id) !== PROJECT_ID || !head)
      return { status: 404, json: { message: '404 Branch Not Found' } };
    const template = glFixture<{ name: string; commit: Record<string, unknown> }>('branch');
    return { json: { ...template, name: req.params.branch, commit: { ...template.commit, id: head } } };
  });
  api('GET', '/projects/:id/repository/tree', (req) => {
    const nodes = contractTreeAt(req.query.get('ref') ?? '');
    const under = nodes && contractTreeUnder(nodes, (req.query.get('path') ?? '').replace(/^\/+|\/+$/g, ''));
    if (Number(req.params.id) !== PROJECT_ID || !under) return { status: 404, json: { message: '404 Tree Not Found' } };
    const entries = under.map((n) => ({
      id: n.objectId,
      name: n.path.split('/').at(-1),
      type: n.kind === 'file' ? 'blob' : n.kind === 'directory' ? 'tree' : 'commit',
      path: n.path,
      mode: n.kind === 'file' ? '100644' : n.kind === 'directory' ? '040000' : '160000',
    }));
    return req.query.get('pagination') === 'keyset' ? keysetPaged(req, entries, server.url) : paged(req, entries);
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
    discussions: states.get(s.pullRequest.number)?.discussions ?? [],
    writes,
    statuses: statusBoard.statuses,
    refuseStatuses: statusBoard.refuseStatuses,
    async loadPullRequest(scenario) {
      const loaded = history.load(scenario);
      const revision = loaded.revisions.at(-1);
      if (!revision) return;
      const known = states.get(scenario.number);
      const diffs = await Promise.all(revision.changes.map(glDiff));
      const versions = known?.versions ?? [];
      let version = versions.find((v) => v.head_commit_sha === revision.headSha);
      if (!version) {
        version = {
          ...(legacyVersions[0] as GlVersion),
          id: nextVersionId++,
          head_commit_sha: revision.headSha,
          base_commit_sha: revision.mergeBaseSha,
          start_commit_sha: revision.baseSha,
          created_at: new Date(Date.UTC(2026, 9, 3, 9, versions.length)).toISOString(),
          state: 'collected',
          real_size: String(diffs.length),
        };
        versions.unshift(version);
      }
      const diffsOf = known?.diffsOf ?? new Map<number, GlDiff[]>();
      diffsOf.set(version.id, diffs);
      states.set(scenario.number, {
        mr: scenarioMergeRequest(scenario, revision.mergeBaseSha),
        versions,
        diffsOf,
        discussions: known?.discussions ?? [],
      });
    },
    refuseThreadsOn(path) {
      refused.add(path);
    },
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

function scenarioMergeRequest(scenario: PullRequestScenario, mergeBaseSha: string): GlMergeRequest {
  const template = glFixture<GlMergeRequest>('merge-request');
  const n = scenario.number;
  const state = { open: 'opened', closed: 'closed', merged: 'merged' }[scenario.status ?? 'open'];
  return {
    ...template,
    id: 93_000 + n,
    iid: n,
    title: scenario.title,
    description: scenario.description,
    state,
    draft: scenario.isDraft ?? false,
    work_in_progress: scenario.isDraft ?? false,
    source_branch: scenario.sourceBranch,
    target_branch: scenario.targetBranch,
    sha: scenario.headSha,
    diff_refs: { base_sha: mergeBaseSha, head_sha: scenario.headSha, start_sha: scenario.baseSha },
    reviewers: [],
    references: { full: `acme/uploader!${n}` },
    web_url: `https://gitlab.example.com/acme/uploader/-/merge_requests/${n}`,
  };
}

/**
 * GitLab's `diffs[]` entry for a change: hunks without the `---`/`+++` lines, git's `Binary files`
 * line for a binary, nothing for a pure rename; a new or deleted file has the same path on both sides.
 */
async function glDiff(change: FileChange): Promise<GlDiff> {
  const { text } = await diffOf(change);
  const path = pathOf(change);
  return {
    old_path: change.oldPath ?? path,
    new_path: change.newPath ?? path,
    a_mode: change.changeType === 'added' ? '0' : '100644',
    b_mode: change.changeType === 'deleted' ? '0' : '100644',
    new_file: change.changeType === 'added',
    renamed_file: change.changeType === 'renamed',
    deleted_file: change.changeType === 'deleted',
    generated_file: false,
    too_large: false,
    collapsed: false,
    diff: text.replace(/^--- .*\n\+\+\+ .*\n/, ''),
  };
}

/** GitLab's offset paging: `page`, `per_page` (default 20, capped at 100) and the `x-*` headers. */
/**
 * GitLab's keyset paging of the tree: `page_token` names the last path of the previous page and the
 * next page's URL comes only in the `Link` header.
 */
function keysetPaged(req: FakeRequest, items: ReadonlyArray<{ path: string }>, baseUrl: string): FakeReply {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 20)));
  const token = req.query.get('page_token');
  const after = token ? Buffer.from(token, 'base64').toString('utf8') : undefined;
  const start = after === undefined ? 0 : items.findIndex((i) => i.path > after);
  const page = start < 0 ? [] : items.slice(start, start + perPage);
  const last = page.at(-1);
  const headers: Record<string, string> = {};
  if (last && start + perPage < items.length) {
    const next = new URL(`${baseUrl}${req.path}`);
    for (const [key, value] of req.query) if (key !== 'page_token') next.searchParams.set(key, value);
    next.searchParams.set('page_token', Buffer.from(last.path).toString('base64'));
    headers.link = `<${next.href}>; rel="next"`;
  }
  return { headers, json: page };
}

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

/**
 * GitLab's own checks of a text position: the diff refs of one of the merge request's versions, a
 * file of that version with a diff GitLab shows, `old_line`/`new_line` naming exactly one line of its
 * hunks, and `line_range` ends whose line codes name lines of those hunks.
 */
function placeable(position: Record<string, unknown>, state: MergeRequestState): boolean {
  if (position.position_type !== 'text') return false;
  const version = state.versions.find(
    (v) =>
      v.base_commit_sha === position.base_sha &&
      v.start_commit_sha === position.start_sha &&
      v.head_commit_sha === position.head_sha,
  );
  const file = version
    ? state.diffsOf.get(version.id)?.find((d) => d.new_path === position.new_path && d.old_path === position.old_path)
    : undefined;
  if (!file || file.too_large || !file.diff) return false;
  const lines = readDiffLines(file.diff).map((line) => ({
    oldLine: line.type === 'added' ? null : line.oldPos,
    newLine: line.type === 'removed' ? null : line.newPos,
    code: lineCode(file.new_path, line.oldPos, line.newPos),
  }));
  const oldLine = position.old_line ?? null;
  const newLine = position.new_line ?? null;
  if (oldLine === null && newLine === null) return false;
  if (!lines.some((line) => line.oldLine === oldLine && line.newLine === newLine)) return false;
  const range = position.line_range as { start?: GlRangeEnd; end?: GlRangeEnd } | undefined;
  if (range === undefined || range === null) return true;
  return [range.start, range.end].every((end) => {
    const line = lines.find((l) => l.code === end?.line_code);
    return (
      line !== undefined &&
      (end?.type === 'new' || end?.type === 'old') &&
      (end.type === 'new') === (line.oldLine === null) &&
      (end.new_line ?? null) === line.newLine &&
      (end.old_line ?? null) === line.oldLine
    );
  });
}

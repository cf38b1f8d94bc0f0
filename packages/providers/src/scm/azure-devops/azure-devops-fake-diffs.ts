import { contractTreeAt, contractTreeUnder } from '../../testing/contract-tree.js';
import type { FakeReply, FakeRequest } from '../../testing/fake-http-server.js';
import { type FileChange, pathOf, previousPathOf } from '../../testing/scenario-history.js';
import { type AzureDevOpsFakeContext, adoFixture, notFound, R } from './azure-devops-fake-context.js';
import type { AdoChangeEntry } from './azure-devops-wire.js';

/** Iteration changes with stable change-tracking ids, items at any commit or branch, and `diffs/commits`. */
export function serveDiffs(fake: AzureDevOpsFakeContext): void {
  const { route, pr, top, history, contents } = fake;
  const changeEntryOf = changeEntries();

  route('GET', `${R}/pullRequests/:id/iterations/:iteration/changes`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    let all = fake.changes;
    const scenario = history.pullRequests.get(found.pullRequestId);
    if (scenario) {
      const revision = scenario.revisions[Number(req.params.iteration) - 1];
      if (!revision) return { status: 404, json: { message: 'TF401181: The requested iteration was not found.' } };
      const compareTo = scenario.revisions[Number(req.query.get('$compareTo') ?? 0) - 1];
      const listed = compareTo
        ? (history.compare(compareTo.headSha, revision.headSha)?.changes ?? [])
        : revision.changes;
      all = listed.map((change, i) => changeEntryOf(found.pullRequestId, change, i));
    }
    const skip = Number(req.query.get('$skip') ?? 0);
    const size = top(req, 100);
    const changeEntries = all.slice(skip, skip + size);
    const more = skip + size < all.length;
    return { json: { changeEntries, nextSkip: more ? skip + size : 0, nextTop: more ? size : 0 } };
  });

  route('GET', `${R}/items`, (req) => {
    if (req.query.has('scopePath')) return listItems(req);
    const path = req.query.get('path') ?? '';
    const version = req.query.get('versionDescriptor.version') ?? '';
    const versionType = req.query.get('versionDescriptor.versionType');
    if (versionType !== 'commit' && versionType !== 'branch') return { status: 400, json: { message: 'versionType' } };
    const text = versionType === 'commit' ? contents.get(`${version}:${path}`) : undefined;
    const relative = path.replace(/^\/+/, '');
    const bytes =
      text !== undefined
        ? Buffer.from(text)
        : history.fileAt(versionType === 'commit' ? version : { branch: version }, relative)?.bytes;
    if (bytes === undefined) return notFound('error-item-not-found');
    return { headers: { 'content-type': 'application/octet-stream' }, text: bytes.toString('utf8') };
  });

  route('GET', `${R}/diffs/commits`, (req) => {
    const base = req.query.get('baseVersion') ?? '';
    const target = req.query.get('targetVersion') ?? '';
    const comparison = history.compare(base, target);
    if (!comparison) {
      return {
        status: 404,
        json: {
          message: `TF401175: The version descriptor <Commit: ${base}> could not be resolved to a version in the repository.`,
          typeKey: 'GitUnresolvableToCommitException',
        },
      };
    }
    // `diffCommonCommit=true` diffs from the common commit instead of the base.
    const fromCommon = req.query.get('diffCommonCommit') === 'true' && comparison.mergeBaseSha !== base;
    const all = fromCommon ? (history.compare(comparison.mergeBaseSha, target)?.changes ?? []) : comparison.changes;
    const skip = Number(req.query.get('$skip') ?? 0);
    const size = top(req, 100);
    const page = all.slice(skip, skip + size);
    const counts: Record<string, number> = {};
    for (const change of all) {
      const kind = { added: 'Add', deleted: 'Delete', modified: 'Edit', renamed: 'Rename' }[change.changeType];
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    const relation = comparison.relation;
    return {
      json: {
        ...adoFixture<object>('commit-diffs'),
        allChangesIncluded: skip + size >= all.length,
        changeCounts: counts,
        changes: page.map((change) => {
          const previousPath = previousPathOf(change);
          return {
            item: { ...itemOf(change), gitObjectType: 'blob', commitId: target },
            changeType: changeTypeOf(change),
            ...(previousPath ? { sourceServerItem: `/${previousPath}` } : {}),
          };
        }),
        commonCommit: comparison.mergeBaseSha,
        baseCommit: base,
        targetCommit: target,
        aheadCount: relation === 'ahead' || relation === 'diverged' ? 1 : 0,
        behindCount: relation === 'behind' || relation === 'diverged' ? 1 : 0,
      },
    };
  });
}

/** A scenario's change as an iteration's change entry; a file keeps its change-tracking id across iterations. */
function changeEntries(): (number: number, change: FileChange, index: number) => AdoChangeEntry {
  const trackingIds = new Map<number, Map<string, number>>();
  const trackingIdOf = (number: number, path: string) => {
    let ids = trackingIds.get(number);
    if (!ids) {
      ids = new Map();
      trackingIds.set(number, ids);
    }
    let id = ids.get(path);
    if (id === undefined) {
      id = ids.size + 1;
      ids.set(path, id);
    }
    return id;
  };
  return (number, change, index) => {
    const previousPath = previousPathOf(change);
    return {
      changeTrackingId: trackingIdOf(number, pathOf(change)),
      changeId: index + 1,
      item: itemOf(change),
      changeType: changeTypeOf(change),
      ...(previousPath ? { originalPath: `/${previousPath}` } : {}),
    };
  };
}

function changeTypeOf(change: FileChange): string {
  if (change.changeType === 'added') return 'add';
  if (change.changeType === 'deleted') return 'delete';
  if (change.changeType === 'modified') return 'edit';
  return change.old?.blobId === change.new?.blobId ? 'rename' : 'edit, rename';
}

function itemOf(change: FileChange) {
  return {
    ...(change.new ? { objectId: change.new.blobId } : {}),
    ...(change.old ? { originalObjectId: change.old.blobId } : {}),
    path: `/${pathOf(change)}`,
  };
}

/**
 * `items?scopePath=&recursionLevel=Full` at a commit: the scope folder itself, then everything under
 * it, paths with a leading slash, all in one answer (the listing does not page).
 */
function listItems(req: FakeRequest): FakeReply {
  if (req.query.get('recursionLevel') !== 'Full' || req.query.get('versionDescriptor.versionType') !== 'commit') {
    return { status: 400, json: { message: 'The fake lists only recursionLevel=Full at a commit.' } };
  }
  const commit = req.query.get('versionDescriptor.version') ?? '';
  const scope = (req.query.get('scopePath') ?? '/').replace(/^\/+|\/+$/g, '');
  const nodes = contractTreeAt(commit);
  const under = nodes && contractTreeUnder(nodes, scope);
  if (!under) return notFound('error-item-not-found');
  const folder = {
    objectId: 'f'.repeat(40),
    gitObjectType: 'tree',
    commitId: commit,
    path: `/${scope}`,
    isFolder: true,
  };
  const value = [
    folder,
    ...under.map((n) => ({
      objectId: n.objectId,
      gitObjectType: n.kind === 'file' ? 'blob' : n.kind === 'directory' ? 'tree' : 'commit',
      commitId: commit,
      path: `/${n.path}`,
      ...(n.kind === 'directory' ? { isFolder: true } : {}),
      url: `https://dev.azure.example/items/${encodeURIComponent(n.path)}`,
    })),
  ];
  return { json: { count: value.length, value } };
}

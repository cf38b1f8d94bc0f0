import { MarginError } from '../kernel/index.js';
import { classifyByPath } from '../review-engine/index.js';
import type { ScmWiki, TreeEntry } from '../scm-provider/index.js';
import { chunkFile, chunkMarkdown, isMarkdownPath } from './chunk-file.js';
import type { IndexChunkInput, IndexSymbolInput } from './index-records.js';
import type { KnowledgeSourceRecord } from './knowledge-records.js';
import type { SourceRepository } from './source-repository.js';

/** Files larger than this are skipped unread (counted in `skippedFiles`). */
export const MAX_INDEXED_FILE_BYTES = 1024 * 1024;

/** What the indexer does with one listed file. */
export type Placement =
  /** Read and indexed, shown (and stored) under `path`. */
  | { path: string }
  /** Left out and counted in `skippedFiles`. */
  | 'skipped'
  /** Left out uncounted: not content at all (a wiki's page order). */
  | 'ignored';

/** How a source's files are found in its repository and shown in the index. */
export interface SourceLayout {
  /** Folder listed, repository-relative without slashes at either end (`''`: everything). */
  prefix: string;
  place(entry: TreeEntry): Placement;
  /** Whether definitions are looked for (wiki pages have none). */
  symbols: boolean;
  chunk(entry: TreeEntry, text: string, symbols: readonly IndexSymbolInput[]): IndexChunkInput[];
}

const trimSlashes = (path: string) => path.replace(/^\/+|\/+$/g, '');
const joinPath = (...parts: string[]) => parts.map(trimSlashes).filter(Boolean).join('/');

/**
 * A repository source: the root path's files, minus the review engine's binary, lock, vendored and
 * generated files and files over the size limit. An `adoWiki` source: see `wikiLayout`.
 */
export async function sourceLayout(
  repo: SourceRepository,
  source: KnowledgeSourceRecord,
  branchName: string,
  signal: AbortSignal,
): Promise<SourceLayout> {
  if (source.sourceKind === 'adoWiki') return wikiLayout(repo, source, branchName, signal);
  return repositoryLayout(source);
}

/** A repository source's layout; the pull request's mini-index applies the same rules to the change. */
export function repositoryLayout(source: KnowledgeSourceRecord): SourceLayout {
  return {
    prefix: trimSlashes(source.rootPath),
    place: (entry) =>
      tooLarge(entry) || classifyByPath({ path: entry.path, changeType: 'modified' }, () => false)
        ? 'skipped'
        : { path: entry.path },
    symbols: source.symbolMode === 'auto',
    chunk: (entry, text, symbols) =>
      isMarkdownPath(entry.path) && symbols.length === 0 ? chunkMarkdown(text) : chunkFile(text, symbols),
  };
}

const tooLarge = (entry: TreeEntry) => entry.sizeBytes !== undefined && entry.sizeBytes > MAX_INDEXED_FILE_BYTES;

/**
 * An Azure DevOps wiki is read as the git repository behind it (a project wiki's own `<project>.wiki`
 * repository, or the folder a code wiki maps in a code repository), through the same tree listing and
 * file reads as a repository source, rather than through the wiki pages API: the listing carries blob
 * ids, so a refresh re-reads only changed pages, branches are the wiki's versions, and no call per page
 * is needed to find what changed. The wiki listing (when the adapter has it) gives the mapped folder;
 * the source's root path is a folder of the wiki, under it.
 *
 * Only Markdown pages are indexed, under their wiki page path (`Team/Getting-Started.md` is
 * `/Team/Getting Started`); the `.order` files that sort pages are ignored, attachments (the
 * `.attachments` folder) and any other file are counted as skipped.
 */
async function wikiLayout(
  repo: SourceRepository,
  source: KnowledgeSourceRecord,
  branchName: string,
  signal: AbortSignal,
): Promise<SourceLayout> {
  const wiki = await findWiki(repo, source, branchName, signal);
  // Without a wiki listing the repository is taken as a project wiki's: the wiki is all of it.
  const mapped = trimSlashes(wiki?.mappedPath ?? '');
  return {
    prefix: joinPath(mapped, source.rootPath),
    place(entry) {
      if (mapped && !entry.path.startsWith(`${mapped}/`)) return 'ignored';
      const relative = mapped ? entry.path.slice(mapped.length + 1) : entry.path;
      const segments = relative.split('/');
      if (segments.at(-1) === '.order') return 'ignored';
      if (tooLarge(entry) || segments.includes('.attachments') || !/\.md$/i.test(relative)) return 'skipped';
      return { path: wikiPagePath(relative) };
    },
    symbols: false,
    chunk: (_entry, text) => chunkMarkdown(text),
  };
}

/**
 * The wiki the source's repository backs. Several code wikis may map folders of one repository: the
 * first published from the branch is taken.
 */
async function findWiki(
  repo: SourceRepository,
  source: KnowledgeSourceRecord,
  branchName: string,
  signal: AbortSignal,
): Promise<ScmWiki | undefined> {
  if (!repo.provider.listWikis) return undefined;
  const key = source.canonicalSourceRef.value.toLowerCase();
  const backed: ScmWiki[] = [];
  for await (const wiki of repo.provider.listWikis(repo.ref, { signal })) {
    if (wiki.repositoryId.toLowerCase() === key) backed.push(wiki);
  }
  if (backed.length === 0) {
    throw MarginError.conflict(
      `No wiki of the project ${source.providerProjectKey} is backed by the repository ${source.canonicalSourceRef.value}.`,
    );
  }
  return backed.find((w) => w.branches.includes(branchName)) ?? backed[0];
}

/**
 * A page file's wiki page path: Azure DevOps writes a space in a page name as `-` and a `-` (and
 * other special characters) percent-encoded, so the name is decoded in that order.
 */
export function wikiPagePath(relativeFile: string): string {
  const segments = relativeFile.replace(/\.md$/i, '').split('/');
  return `/${segments
    .map((segment) => {
      const spaced = segment.replace(/-/g, ' ');
      try {
        return decodeURIComponent(spaced);
      } catch {
        return spaced;
      }
    })
    .join('/')}`;
}

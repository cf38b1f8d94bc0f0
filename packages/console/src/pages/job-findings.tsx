import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, Empty } from '../ui/display.js';
import { ProblemSummary, SelectField, useAction } from '../ui/form.js';
import { Section } from '../ui/page.js';
import { citationInWords, FINDING_REASONS, PUBLICATION } from '../words.js';
import { Reason } from './job-coverage.js';

type Finding = Schemas['Finding'];
const PR_LEVEL = 'Pull request';

const dismissalKey = (message: string, filePath: string | null) => JSON.stringify([message, filePath]);

/**
 * The findings (by `dismissalKey`) the client has dismissals for. The API lists dismissals only by
 * client, page by page: read on until every finding of the job is accounted for or the list ends,
 * so a dismissal past the first page still counts.
 */
async function dismissedAmong(clientId: string, findings: readonly Finding[]): Promise<Set<string>> {
  const wanted = new Set(findings.map((f) => dismissalKey(f.message, f.filePath)));
  const found = new Set<string>();
  let cursor: string | undefined;
  while (found.size < wanted.size) {
    const page = await api.reviewing.listDismissals(clientId, cursor ? { limit: 200, cursor } : { limit: 200 });
    for (const d of page.items) {
      const key = dismissalKey(d.findingMessage, d.filePath ?? null);
      if (wanted.has(key)) found.add(key);
    }
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return found;
}

/** Findings grouped by file, each with its publication state and, when held back, why. */
export function Findings({ job }: { job: Schemas['JobStatus'] }) {
  const findings = job.result?.findings ?? [];
  const { client } = useClient();
  // Which findings the client already dismissed, so the page says so after a reload too. An attempt's
  // findings never change once it has a result; dismissing one invalidates the client's dismissals.
  const dismissed = useQuery({
    queryKey: [...queryKeys.dismissals(client.id), { amongJob: job.jobId, attempt: job.attempt }],
    queryFn: () => dismissedAmong(client.id, findings),
  });
  const isDismissed = (f: Finding) => dismissed.data?.has(dismissalKey(f.message, f.filePath)) ?? false;
  const [params, setParams] = useSearchParams();
  const shown = params.get('publication') ?? '';
  const visible = shown ? findings.filter((f) => f.publication === shown) : findings;
  const byFile = new Map<string, Finding[]>();
  for (const f of visible) byFile.set(f.filePath ?? PR_LEVEL, [...(byFile.get(f.filePath ?? PR_LEVEL) ?? []), f]);
  const counts = Object.keys(PUBLICATION).map(
    (state) => `${findings.filter((f) => f.publication === state).length} ${state}`,
  );
  return (
    <Section title={`Findings (${findings.length})`}>
      <p className="hint">{counts.join(' · ')}</p>
      <SelectField
        label="Show"
        name="publication"
        value={shown}
        onChange={(v) =>
          setParams((p) => {
            const copy = new URLSearchParams(p);
            if (v) copy.set('publication', v);
            else copy.delete('publication');
            return copy;
          })
        }
        placeholder="Every finding"
        options={Object.keys(PUBLICATION).map((state) => ({ value: state, label: `Only ${state}` }))}
      />
      {byFile.size === 0 ? (
        <Empty>No findings{shown ? ' in this state' : ''}.</Empty>
      ) : (
        [...byFile].map(([file, list]) => (
          <section key={file} className="file-group" aria-label={`Findings in ${file}`}>
            <h3 className="mono">{file}</h3>
            <ul className="findings">
              {list.map((f) => (
                <FindingItem key={f.id} finding={f} dismissed={isDismissed(f)} />
              ))}
            </ul>
          </section>
        ))
      )}
    </Section>
  );
}

/** The code-knowledge passages the finding relies on, each with the source it was found in. */
function Citations({ citations }: { citations: NonNullable<Finding['citations']> }) {
  const { client } = useClient();
  return (
    <div className="citations">
      <span className="muted">Consulted:</span>
      <ul aria-label="Knowledge the finding cites">
        {citations.map((c) => (
          <li key={`${c.sourceId}:${c.path}:${c.startLine}:${c.endLine}:${c.commit}`}>
            <span className="mono">{citationInWords(c)}</span>{' '}
            <Link className="muted" to={`/clients/${client.id}/knowledge`}>
              (source {c.sourceId})
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function FindingItem({ finding: f, dismissed }: { finding: Finding; dismissed: boolean }) {
  const { client, canAdminister } = useClient();
  const dismiss = useAction(
    () =>
      api.reviewing.dismissFinding(client.id, {
        findingMessage: f.message,
        ...(f.filePath ? { filePath: f.filePath } : {}),
        label: f.category,
      }),
    [queryKeys.dismissals(client.id)],
  );
  const lines = f.startLine
    ? f.endLine && f.endLine !== f.startLine
      ? `lines ${f.startLine}–${f.endLine}`
      : `line ${f.startLine}`
    : 'no line';
  return (
    <li className={`finding severity-${f.severity}`}>
      <div className="finding-head">
        <Badge
          value={f.severity === 'error' ? 'failed' : f.severity === 'warning' ? 'warn' : 'muted'}
          label={f.severity}
        />
        <span className="muted">{lines}</span>
        <span className="muted">{f.category}</span>
        <span className="muted">confidence {f.confidence}</span>
        {f.verifierScore !== undefined && <span className="muted">verifier score {f.verifierScore} of 10</span>}
        <Badge value={f.publication} />
      </div>
      {f.title && (
        <p>
          <strong>{f.title}</strong>
        </p>
      )}
      <p>{f.message}</p>
      {f.suggestion && <pre className="suggestion">{f.suggestion}</pre>}
      {f.citations && f.citations.length > 0 && <Citations citations={f.citations} />}
      <p className="publication">
        <strong>{PUBLICATION[f.publication]}</strong>
        {f.reason && (
          <>
            {' '}
            Reason: <Reason table={FINDING_REASONS} code={f.reason} />
          </>
        )}
        {f.providerThreadId && <span className="muted"> (thread {f.providerThreadId})</span>}
      </p>
      {dismissed ? (
        <p role="status" className="ok-text">
          Dismissed: later reviews suppress similar findings.
        </p>
      ) : (
        canAdminister && (
          <button
            type="button"
            onClick={() => void dismiss.run()}
            disabled={dismiss.pending}
            aria-label={`Dismiss finding: ${f.message}`}
          >
            Dismiss
          </button>
        )
      )}
      <ProblemSummary problem={dismiss.problem} />
    </li>
  );
}

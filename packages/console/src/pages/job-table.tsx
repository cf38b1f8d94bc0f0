import type { Schemas } from '@margin/sdk-client';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge, Time } from '../ui/display.js';
import { familyName } from '../words.js';

/** Jobs as rows: one table for the overview, the client's review list and the jobs a budget stopped. */
export function JobTable({
  jobs,
  clients,
  action,
}: {
  jobs: Schemas['JobSummary'][];
  clients?: Schemas['Client'][];
  /** A last column with what can be done to each job. */
  action?: (job: Schemas['JobSummary']) => ReactNode;
}) {
  return (
    <table>
      <caption className="sr-only">Review jobs</caption>
      <thead>
        <tr>
          <th scope="col">Pull request</th>
          {clients && <th scope="col">Client</th>}
          <th scope="col">Status</th>
          <th scope="col">Progress</th>
          <th scope="col">Findings</th>
          <th scope="col">Trigger</th>
          <th scope="col">Submitted</th>
          {action && (
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {jobs.map((j) => (
          <tr key={j.jobId}>
            <td>
              <Link to={`/clients/${j.clientId}/reviews/${j.jobId}`}>
                {j.repository.projectPath} #{j.codeReview.number}
              </Link>{' '}
              <span className="muted">{familyName(j.provider)}</span>
            </td>
            {clients && <td>{clients.find((c) => c.id === j.clientId)?.displayName ?? j.clientId}</td>}
            <td>
              <Badge value={j.status} />
            </td>
            <td>{j.progress.filesTotal > 0 ? `${j.progress.filesDone}/${j.progress.filesTotal} files` : '—'}</td>
            <td>{j.result?.findingCount ?? '—'}</td>
            <td>{j.trigger}</td>
            <td>
              <Time at={j.submittedAt} />
            </td>
            {action && <td>{action(j)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

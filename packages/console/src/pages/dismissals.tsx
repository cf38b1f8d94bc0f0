import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { ConfirmButton, Empty, Loaded, Time } from '../ui/display.js';
import { ProblemSummary, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';

/** Findings the client dismissed; later reviews suppress similar ones. Dismiss from a job's page. */
export function DismissalsPage() {
  const { client, canAdminister } = useClient();
  const dismissals = useCursorList('dismissals', queryKeys.dismissals(client.id), (q) =>
    api.reviewing.listDismissals(client.id, q),
  );
  const forget = useAction(
    (id: string) => api.reviewing.deleteDismissal(client.id, id),
    [queryKeys.dismissals(client.id)],
  );
  return (
    <Page title="Dismissed findings">
      <p className="hint">
        Dismiss a finding from its review's page. Forgetting a dismissal lets similar findings through again.
      </p>
      <Section title="Dismissals">
        <ProblemSummary problem={forget.problem} />
        <Loaded query={dismissals.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>Nothing dismissed yet.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Dismissed findings</caption>
                  <thead>
                    <tr>
                      <th scope="col">Finding</th>
                      <th scope="col">File</th>
                      <th scope="col">Label</th>
                      <th scope="col">Dismissed</th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((d) => (
                      <tr key={d.id}>
                        <td>{d.findingMessage}</td>
                        <td className="mono small">{d.filePath ?? 'any'}</td>
                        <td>{d.label ?? '—'}</td>
                        <td>
                          <Time at={d.createdAt} />
                        </td>
                        <td>
                          {canAdminister && (
                            <ConfirmButton
                              label="Forget"
                              confirmLabel="Forget now"
                              onConfirm={() => void forget.run(d.id)}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {dismissals.pager('Dismissals')}
              </>
            )
          }
        </Loaded>
      </Section>
    </Page>
  );
}

import type { Schemas } from '@margin/sdk-client';
import { Badge, Empty, formatCount, Time } from '../ui/display.js';
import { Value } from './job-coverage.js';

/**
 * Passes in order with their events, numbered on from `start` on later pages; bodies fold away so a
 * long protocol stays scannable.
 */
export function Protocol({ passes, start = 1 }: { passes: Schemas['Protocol']; start?: number }) {
  if (passes.length === 0) return <Empty>No protocol entries for this filter.</Empty>;
  return (
    <ol className="protocol" start={start}>
      {passes.map((pass) => (
        <li key={pass.id} className="pass">
          <div className="pass-head">
            <Badge value={pass.outcome} /> <strong>{pass.label}</strong>{' '}
            <span className="mono muted">{pass.stage}</span>
            {pass.filePath && <span className="mono"> {pass.filePath}</span>}
            <span className="muted">
              {' '}
              attempt {pass.attempt} · <Time at={pass.startedAt} /> · {formatCount(pass.inputTokens)} in /{' '}
              {formatCount(pass.outputTokens)} out
            </span>
          </div>
          {pass.events.length === 0 ? (
            <p className="muted small">No events in this category.</p>
          ) : (
            <table className="events">
              <caption className="sr-only">Events of {pass.label}</caption>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col">Event</th>
                  <th scope="col">Time</th>
                  <th scope="col">Tokens</th>
                  <th scope="col">Body</th>
                </tr>
              </thead>
              <tbody>
                {pass.events.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <span className="tag">{e.eventCategory}</span>
                    </td>
                    <td>
                      <span className="mono">{e.name}</span> <span className="muted">{e.kind}</span>
                    </td>
                    <td className="small">
                      <Time at={e.occurredAt} />
                      {e.durationMs !== null && <span className="muted"> ({e.durationMs} ms)</span>}
                    </td>
                    <td className="small">
                      {e.inputTokens !== null || e.outputTokens !== null
                        ? `${e.inputTokens ?? 0} / ${e.outputTokens ?? 0}`
                        : '—'}
                    </td>
                    <td>
                      {e.body === null || e.body === undefined ? (
                        <span className="muted">—</span>
                      ) : (
                        <details>
                          <summary>Show body</summary>
                          <Value value={e.body} />
                        </details>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </li>
      ))}
    </ol>
  );
}

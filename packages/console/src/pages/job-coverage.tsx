import { Badge, Empty, formatCount } from '../ui/display.js';
import { Section } from '../ui/page.js';
import { COVERAGE_REASONS, COVERAGE_STATES, label, reasonInWords } from '../words.js';

type Row = Record<string, unknown>;
const KNOWN = new Set(['path', 'state', 'reason', 'tokens']);

/**
 * The manifest's files per state (`counts`), in the order of COVERAGE_STATES and then any state the
 * console has no words for yet.
 */
function countsOf(manifest: Row): Array<[state: string, files: number]> {
  const counts = (typeof manifest.counts === 'object' && manifest.counts !== null ? manifest.counts : {}) as Row;
  const states = new Set([...Object.keys(COVERAGE_STATES), ...Object.keys(counts)]);
  return [...states].flatMap((state) => {
    const files = counts[state];
    return typeof files === 'number' ? [[state, files] as [string, number]] : [];
  });
}

/**
 * The coverage manifest: how many files each state has, then every file with its state, reason and
 * tokens. The engine may add fields; they are shown as they come rather than dropped.
 */
export function Coverage({ coverage }: { coverage: unknown }) {
  if (coverage === null || coverage === undefined) return null;
  const manifest = (typeof coverage === 'object' ? coverage : { value: coverage }) as Row;
  const files = Array.isArray(manifest.files) ? (manifest.files as Row[]) : [];
  const counts = countsOf(manifest);
  const rest = Object.entries(manifest).filter(([key]) => key !== 'files' && key !== 'counts');
  const extraKeys = [...new Set(files.flatMap((f) => Object.keys(f).filter((k) => !KNOWN.has(k))))];
  return (
    <Section title="Coverage">
      {counts.length > 0 && (
        <table className="narrow">
          <caption className="sr-only">Files by coverage state</caption>
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Files</th>
            </tr>
          </thead>
          <tbody>
            {counts.map(([state, n]) => (
              <tr key={state}>
                <th scope="row">{label(COVERAGE_STATES, state)}</th>
                <td>{formatCount(n)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {files.length === 0 ? (
        <Empty>The manifest lists no files.</Empty>
      ) : (
        <table>
          <caption className="sr-only">Coverage manifest</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">State</th>
              <th scope="col">Reason</th>
              <th scope="col">Tokens</th>
              {extraKeys.map((k) => (
                <th scope="col" key={k}>
                  {k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={String(f.path)}>
                <td className="mono">{String(f.path ?? '—')}</td>
                <td>
                  <Badge value={String(f.state)} label={label(COVERAGE_STATES, String(f.state))} />
                </td>
                <td>{f.reason === undefined ? '—' : <Reason table={COVERAGE_REASONS} code={String(f.reason)} />}</td>
                <td>{typeof f.tokens === 'number' ? f.tokens.toLocaleString() : '—'}</td>
                {extraKeys.map((k) => (
                  <td key={k}>
                    <Value value={f[k]} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rest.length > 0 && (
        <dl className="pairs">
          {rest.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>
                <Value value={value} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Section>
  );
}

/** A reason code in words, followed by the code itself (what the protocol's events name). */
export function Reason({ table, code }: { table: Record<string, string>; code: string }) {
  const words = reasonInWords(table, code);
  if (words === code) return <>{code}</>;
  return (
    <>
      {words} <span className="mono muted small">({code})</span>
    </>
  );
}

/** Any JSON value, readable: scalars as text, the rest as indented JSON. */
export function Value({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <span className="muted">—</span>;
  if (typeof value !== 'object') return <>{String(value)}</>;
  return <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
}

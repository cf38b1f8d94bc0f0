import type { Schemas } from '@margin/sdk-client';
import { formatCount, formatUsd } from '../ui/display.js';

type UsageReport = Schemas['UsageReport'];

const WIDTH = 720;
const HEIGHT = 160;
const AXIS = 18;

/** Every UTC day from `from` to `to` (both `YYYY-MM-DD`, included). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= end; at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * A `groupBy=day` report as inline SVG bars of tokens (input and output) per day, every day of the
 * window shown so a quiet day is a gap, not a missing column. Each bar's title gives its numbers;
 * the figure's label gives the totals for a screen reader.
 */
export function DailyUsageChart({ report }: { report: UsageReport }) {
  const byDay = new Map(report.rows.map((r) => [r.key, r]));
  const days = daysBetween(report.from, report.to);
  const tokens = (key: string) => {
    const row = byDay.get(key);
    return row ? row.inputTokens + row.outputTokens : 0;
  };
  const most = Math.max(1, ...days.map(tokens));
  const slot = WIDTH / Math.max(1, days.length);
  const plot = HEIGHT - AXIS;
  const { totals } = report;
  return (
    <figure>
      <svg
        className="usage-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Tokens per day from ${report.from} to ${report.to}: ${formatCount(totals.inputTokens + totals.outputTokens)} tokens in ${formatCount(totals.calls)} calls`}
      >
        <line x1={0} x2={WIDTH} y1={plot} y2={plot} />
        {days.map((day, i) => {
          const row = byDay.get(day);
          const height = (tokens(day) / most) * (plot - 4);
          return (
            <g key={day}>
              {row && (
                <rect className="bar" x={i * slot + 1} y={plot - height} width={Math.max(1, slot - 2)} height={height}>
                  <title>
                    {`${day}: ${formatCount(tokens(day))} tokens, ${formatCount(row.calls)} calls, ${formatUsd(row.estimatedCostUsd)}`}
                  </title>
                </rect>
              )}
              {/* Every fifth day and the first are labelled; all of them would overlap. */}
              {(i === 0 || (i + 1) % 5 === 0) && (
                <text className="axis" x={i * slot + slot / 2} y={HEIGHT - 4} textAnchor="middle">
                  {day.slice(8)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="muted small">
        Input and output tokens per day (UTC); the tallest bar is {formatCount(most)} tokens. Total{' '}
        {formatUsd(totals.estimatedCostUsd)}
        {totals.costIsApproximate ? ' (approximate)' : ''}.
      </figcaption>
    </figure>
  );
}

/** A calendar month (UTC) as the reports' window: its first and last day. */
export function monthWindow(month: string): { from: string; to: string } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

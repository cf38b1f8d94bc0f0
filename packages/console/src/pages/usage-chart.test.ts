import { describe, expect, it } from 'vitest';
import { daysBetween } from './usage-chart.js';

describe('daysBetween', () => {
  it('lists every UTC day of the window, both ends included', () => {
    expect(daysBetween('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  });

  it('gives one day for a one-day window and none for a reversed one', () => {
    expect(daysBetween('2026-11-27', '2026-11-27')).toEqual(['2026-11-27']);
    expect(daysBetween('2026-11-28', '2026-11-27')).toEqual([]);
  });

  it('counts a whole month, whatever the local time zone', () => {
    expect(daysBetween('2026-10-01', '2026-10-31')).toHaveLength(31);
  });
});

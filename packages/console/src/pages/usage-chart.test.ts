import { describe, expect, it } from 'vitest';
import { daysBetween, monthWindow } from './usage-chart.js';

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

describe('monthWindow', () => {
  it('spans the calendar month from its first to its last day, leap years included', () => {
    expect(monthWindow('2026-11')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(monthWindow('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(monthWindow('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthWindow('2027-02')).toEqual({ from: '2027-02-01', to: '2027-02-28' });
  });
});

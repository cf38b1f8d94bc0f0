import { MarginError } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from './database-url.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite::memory:', { dialect: 'sqlite', filename: ':memory:' }],
    ['sqlite:./data/margin.db', { dialect: 'sqlite', filename: './data/margin.db' }],
    ['sqlite:///var/lib/margin/margin.db', { dialect: 'sqlite', filename: '/var/lib/margin/margin.db' }],
    ['postgres://u:p@db:5432/margin', { dialect: 'postgres', connectionString: 'postgres://u:p@db:5432/margin' }],
    ['postgresql://db/margin', { dialect: 'postgres', connectionString: 'postgresql://db/margin' }],
  ])('reads %s', (url, expected) => {
    expect(parseDatabaseUrl(url)).toEqual(expected);
  });

  it('refuses other schemes without echoing the URL', () => {
    const error = (() => {
      try {
        parseDatabaseUrl('mysql://root:hunter2@db/margin');
      } catch (e) {
        return e;
      }
    })();
    expect(MarginError.isInstance(error) && error.code).toBe('validation_failed');
    expect(String((error as Error).message)).not.toContain('hunter2');
  });
});

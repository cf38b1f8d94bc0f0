import { MarginError } from '@margin/core/spec';

export type DatabaseTarget =
  | { dialect: 'sqlite'; filename: string }
  | { dialect: 'postgres'; connectionString: string };

/**
 * `sqlite:<path>`, `sqlite::memory:` or `postgres://…` / `postgresql://…`. Errors never echo the
 * URL, which may hold a password.
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url === 'sqlite::memory:') return { dialect: 'sqlite', filename: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!filename)
      throw MarginError.validation('DATABASE_URL: a sqlite URL needs a file path, e.g. sqlite:./data/margin.db.');
    return { dialect: 'sqlite', filename };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', connectionString: url };
  throw MarginError.validation('DATABASE_URL must start with sqlite: or postgres:// (or postgresql://).');
}

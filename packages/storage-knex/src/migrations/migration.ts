import type { Knex } from 'knex';

/** Forward-only: there is no `down`. Each migration handles both dialects. */
export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
}

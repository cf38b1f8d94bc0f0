export interface Db {
  query(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
}

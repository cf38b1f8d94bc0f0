export interface Store {
  save(id: string, value: { name: string }): Promise<void>;
}

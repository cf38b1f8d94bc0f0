import type { UserRecord, UsersRepository } from '../../identity/index.js';
import { decodeCursor, MarginError, toPage } from '../../kernel/index.js';
import { copy, type MemoryState, pageByCreatedAt } from './memory-state.js';

export function memoryUsers(state: () => MemoryState): UsersRepository {
  const rows = () => state().users;
  const byUsername = (username: string) => {
    const wanted = username.toLowerCase();
    for (const user of rows().values()) if (user.username.toLowerCase() === wanted) return user;
    return undefined;
  };
  const byEmail = (email: string) => {
    const wanted = email.toLowerCase();
    for (const user of rows().values()) if (user.email?.toLowerCase() === wanted) return user;
    return undefined;
  };
  const emailTaken = () => MarginError.conflict('A user with this email already exists.');
  return {
    async insert(user) {
      if (rows().has(user.id) || byUsername(user.username)) {
        throw MarginError.conflict('A user with this username already exists.');
      }
      if (user.email && byEmail(user.email)) throw emailTaken();
      rows().set(user.id, copy(user));
    },
    async findById(id) {
      const user = rows().get(id);
      return user && copy(user);
    },
    async findByUsername(username) {
      const user = byUsername(username);
      return user && copy(user);
    },
    async findByEmail(email) {
      const user = byEmail(email);
      return user && copy(user);
    },
    async findManyByIds(ids) {
      return ids.flatMap((id) => {
        const user = rows().get(id);
        return user ? [copy(user)] : [];
      });
    },
    async update(id, patch) {
      const current = rows().get(id);
      if (!current) return undefined;
      if (patch.username !== undefined) {
        const other = byUsername(patch.username);
        if (other && other.id !== id) throw MarginError.conflict('A user with this username already exists.');
      }
      if (patch.email) {
        const other = byEmail(patch.email);
        if (other && other.id !== id) throw emailTaken();
      }
      const next: UserRecord = { ...current, ...copy(patch) };
      rows().set(id, next);
      return copy(next);
    },
    async list(page) {
      const rowsPage = pageByCreatedAt(rows().values(), decodeCursor(page.cursor), page.limit);
      return toPage(rowsPage, page.limit, (u) => ({ key: u.createdAt, id: u.id }));
    },
    async countActive(globalRole) {
      let count = 0;
      for (const user of rows().values()) if (user.isActive && user.globalRole === globalRole) count++;
      return count;
    },
  };
}

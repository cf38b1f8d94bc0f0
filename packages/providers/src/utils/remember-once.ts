/**
 * An async lookup done once and then remembered (e.g. which account the credentials act as); a
 * failed lookup is forgotten so the next call asks again.
 */
export function rememberOnce<T>(lookup: () => Promise<T>): { get(): Promise<T>; set(value: T): void } {
  let pending: Promise<T> | undefined;
  return {
    get() {
      pending ??= lookup().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
    set(value) {
      pending = Promise.resolve(value);
    },
  };
}

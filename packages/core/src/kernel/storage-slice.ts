export interface TransactionOptions {
  /**
   * Serializes the transaction only against the others naming the same lock, instead of against
   * everything it reads: transactions with different locks never conflict. Each read sees what
   * committed before it, so every write that could change what `fn` decides on must take the lock.
   */
  lock?: string | undefined;
}

/**
 * The part of the storage port a capability uses: the repositories it reads and writes, and
 * transactions over them. Each capability declares its own slice, so its use cases can reach
 * nothing else; the whole port (`StorageV1`) satisfies every slice.
 */
export type StorageSlice<R> = R & {
  /** Runs `fn` atomically; see `StorageV1.transaction` for what `fn` may do. */
  transaction<T>(fn: (tx: R) => Promise<T>, options?: TransactionOptions): Promise<T>;
};

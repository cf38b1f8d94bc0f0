import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StorageV1 } from '../../storage/index.js';
import { aiStorageContract } from './ai-storage-contract.js';
import { auditStorageContract } from './audit-storage-contract.js';
import { conversationsStorageContract } from './conversations-storage-contract.js';
import { identityAndTenancyContract } from './identity-contract.js';
import { knowledgeIndexStorageContract } from './knowledge-index-storage-contract.js';
import { reviewingStorageContract } from './reviewing-storage-contract.js';
import { scmStorageContract } from './scm-storage-contract.js';
import { settingsAndTransactionsContract } from './settings-and-transactions-contract.js';
import { spendStorageContract } from './spend-storage-contract.js';
import { triggersStorageContract } from './triggers-storage-contract.js';
import { usersContract } from './users-contract.js';

export interface StorageUnderTest {
  storage: StorageV1;
  /** Closes the storage and removes whatever the run created (database, schema, files). */
  dispose(): Promise<void>;
}

/**
 * The behaviour every StorageV1 implementation must show. Each test gets a fresh, empty storage
 * from `open`, so tests never see each other's rows. One sub-suite per capability, in its own file.
 */
export function describeStorageContract(name: string, open: () => Promise<StorageUnderTest>): void {
  describe(`storage contract: ${name}`, () => {
    let subject: StorageUnderTest;
    beforeEach(async () => {
      subject = await open();
    });
    afterEach(async () => {
      await subject.dispose();
    });
    const storage = () => subject.storage;

    it('answers ping', async () => {
      await expect(storage().ping()).resolves.toBeUndefined();
    });
    usersContract(storage);
    identityAndTenancyContract(storage);
    settingsAndTransactionsContract(storage);
    reviewingStorageContract(storage);
    scmStorageContract(storage);
    aiStorageContract(storage);
    triggersStorageContract(storage);
    auditStorageContract(storage);
    spendStorageContract(storage);
    knowledgeIndexStorageContract(storage);
    conversationsStorageContract(storage);
  });
}

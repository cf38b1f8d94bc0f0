import type { AuditRepositories, AuditTrail } from '../audit/index.js';
import type { Clock, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { Authorizer, TenancyRepositories } from '../tenancy/index.js';
import type { ClientBudgetsRepository } from './budget-record.js';
import type { InFlightSpendRepository } from './in-flight-spend.js';
import type { UsageEventsRepository } from './spend-records.js';

/** Spend's part of the storage port. */
export interface SpendRepositories {
  usageEvents: UsageEventsRepository;
  clientBudgets: ClientBudgetsRepository;
  inFlightSpend: InFlightSpendRepository;
}

/** What the spend use cases need. */
export interface SpendDeps {
  storage: StorageSlice<SpendRepositories & AuditRepositories & TenancyRepositories & LicensingRepositories>;
  clock: Clock;
  authz: Authorizer;
  audit: AuditTrail;
}

/** The adapters a host plugs in, and the facts core reads from what they declare. */
export {
  familyOfSegment,
  type ProviderRegistry,
  requestedAiKind,
  requestedScmFamily,
  scmFamily,
  unregisteredAiKindIssue,
} from './provider-registry.js';

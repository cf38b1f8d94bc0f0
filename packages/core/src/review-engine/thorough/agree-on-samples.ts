import { demote, type EngineFinding } from '../engine-finding.js';
import { keyFinding } from '../identity/key-finding.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { Asked, ThoroughRun } from './ask-samples.js';
import { reachConsensus } from './consensus.js';

/**
 * The consensus over the samples that answered: keeps what `minAgreement` of them produced, drops
 * the rest as `noConsensus`. With fewer answers than that it keeps the union of what answered
 * (identical findings merged), recorded as `thorough.degraded`, so thorough mode never loses what
 * a single conversation would have found.
 */
export function agreeOnSamples(
  bySample: EngineFinding[][],
  thorough: ThoroughRun,
  asked: Asked,
  pass: ProtocolPass,
): { findings: EngineFinding[]; survivors: EngineFinding[] } {
  const answered = bySample.length;
  const live = bySample.map((findings) => findings.filter((f) => f.publication !== 'dropped'));
  for (const f of live.flat()) keyFinding(f);
  const degraded = answered < thorough.minAgreement;
  const consensus = reachConsensus(live, answered, degraded ? 1 : thorough.minAgreement);
  for (const { finding, agreed, alsoProposedAs } of consensus.disagreed) {
    demote(finding, 'dropped', 'noConsensus');
    pass.event({
      kind: 'decision',
      name: 'finding.dropped',
      eventCategory: 'filtering',
      body: {
        findingId: finding.id,
        reason: 'noConsensus',
        path: finding.path,
        agreed,
        samples: answered,
        minAgreement: thorough.minAgreement,
        alsoProposedAs,
      },
    });
  }
  pass.event({
    kind: 'decision',
    name: 'thorough.samples',
    eventCategory: 'planning',
    body: {
      asked: thorough.samples - asked.notAsked,
      answered,
      failed: asked.failures,
      notAsked: asked.notAsked,
      temperature: thorough.temperature,
      minAgreement: thorough.minAgreement,
      groups: consensus.groups,
      survivors: consensus.survivors.map((f) => ({ findingId: f.id, ...f.consensus })),
    },
  });
  if (degraded) {
    pass.event({
      kind: 'warning',
      name: 'thorough.degraded',
      eventCategory: 'planning',
      body: {
        answered,
        minAgreement: thorough.minAgreement,
        reason: asked.notAsked > 0 ? 'hardCap' : 'samplesFailed',
        kept: 'union',
      },
    });
  }
  return {
    findings: [...consensus.survivors, ...consensus.disagreed.map((d) => d.finding)],
    survivors: consensus.survivors,
  };
}

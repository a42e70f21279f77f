import { createHash } from 'node:crypto';
import {
  canonicalJson,
  judgeGate,
  phaseQuota,
  phaseStep,
  type CampaignAction,
  type PhaseLogEntry,
} from '@fleet/domain';
import type { PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import type { PhaseRepository } from './phase-repository';

export interface PhaseRunnerDeps {
  phases: PhaseRepository;
  events: PlatformEventBus;
  webhooks: WebhookNotifier;
  /** The version a firmware campaign installs (its gate judges upgrades to it). */
  versionOf: (action: CampaignAction) => Promise<string>;
}

/**
 * What a phased campaign may do this round: `unphased` campaigns run as before; `dispatch` starts devices of the
 * phases opened so far; `hold` waits (a soak, a failed gate); `done` once every gate passed.
 */
export type PhaseGate = 'unphased' | 'dispatch' | 'hold' | 'done';

/**
 * The thin half of phased rollouts (DESIGN §3): reads a campaign's phase, asks libs/domain campaign-phases what
 * to do, and records it. A failed gate pauses the campaign and tells the people who approved it; only a person
 * lets it go on (the admin API's continue route).
 */
export class PhaseRunner {
  private readonly seals = new Map<string, string | null>();

  constructor(private readonly deps: PhaseRunnerDeps) {}

  async step(c: { id: string; name: string; action: CampaignAction }, now = new Date()): Promise<PhaseGate> {
    const campaignId = c.id;
    const s = await this.deps.phases.state(campaignId);
    if (!s || s.phases.length === 0) return 'unphased';
    if (s.index >= s.phases.length) return 'done';
    const phase = s.phases[s.index]!;
    if (s.soakSince === null) {
      const sizes = await this.deps.phases.sizes(campaignId);
      await this.deps.phases.open(
        campaignId,
        s.index,
        phase,
        phaseQuota(s.phases, s.index, sizes.total, sizes.assigned),
      );
    }
    const { counts, signals } = await this.deps.phases.judged(
      campaignId,
      s.index,
      await this.deps.versionOf(c.action),
    );
    const step = phaseStep(phase, counts, judgeGate(phase.gate, signals, counts), s.soakSince, now);
    const entry = (outcome: PhaseLogEntry['outcome'], detail: string): PhaseLogEntry => ({
      phase: s.index,
      name: phase.name,
      outcome,
      at: now.toISOString(),
      detail,
    });
    switch (step.kind) {
      case 'dispatch':
        return 'dispatch';
      case 'soak_start':
        await this.deps.phases.startSoak(campaignId, s.index);
        return 'hold';
      case 'soaking':
        return 'hold';
      case 'fail': {
        const detail = `phase "${phase.name}" failed its gate: ${step.findings.map((f) => f.detail).join('; ')}`;
        const failed = entry('failed', detail);
        if (await this.deps.phases.fail(campaignId, s.index, failed)) {
          this.announce(campaignId, 'paused', failed);
          const people = await this.deps.phases.people(campaignId);
          await this.deps.webhooks
            .notify('campaign.gate_failed', {
              campaignId,
              name: c.name,
              phase: phase.name,
              findings: step.findings,
              reason: detail,
              tell: people,
            })
            .catch(() => undefined);
        }
        return 'hold';
      }
      case 'pass': {
        const passed = entry('passed', `${counts.started} device(s) started, the gate held after the soak`);
        if (await this.deps.phases.pass(campaignId, s.index, passed))
          this.announce(campaignId, 'running', passed);
        return s.index + 1 >= s.phases.length ? 'done' : 'hold';
      }
    }
  }

  /**
   * The SHA-256 of the definition sealed when the campaign started (libs/domain canonicalJson): each call's reason
   * cites it, so every device's evidence chain seals what its call was made under. Cached: it never changes.
   */
  async seal(campaignId: string): Promise<string | null> {
    if (!this.seals.has(campaignId)) {
      const s = await this.deps.phases.state(campaignId);
      const definition = s?.definition ?? null;
      this.seals.set(
        campaignId,
        definition === null ? null : createHash('sha256').update(canonicalJson(definition)).digest('hex'),
      );
    }
    return this.seals.get(campaignId)!;
  }

  private announce(campaignId: string, state: 'running' | 'paused', e: PhaseLogEntry): void {
    this.deps.events.publish({
      type: 'campaign',
      campaignId,
      state,
      phase: { index: e.phase, name: e.name, outcome: e.outcome, detail: e.detail },
      at: e.at,
    });
  }
}

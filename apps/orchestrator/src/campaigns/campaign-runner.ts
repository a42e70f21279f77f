import {
  CAMPAIGN_TOOL_CHANGED,
  capDispatches,
  campaignActionTool,
  capabilityCall,
  countsAsDone,
  type CampaignTargetState,
} from '@fleet/domain';
import type { CallRequests, PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import type { Logger } from '@fleet/telemetry';
import type { LeaseStore } from '../coordination/lease-store';
import type { AnnouncementCampaigns } from './announcement-campaign';
import type { CampaignRecord, CampaignRepository, Candidate, SettledTarget } from './campaign-repository';
import { inMaintenanceWindow } from './maintenance-window';
import type { PhaseRunner } from './phase-runner';
import { devicesToStart } from './rollout-plan';

export interface CampaignRunnerDeps {
  campaigns: CampaignRepository;
  leases: LeaseStore;
  calls: CallRequests;
  events: PlatformEventBus;
  webhooks: WebhookNotifier;
  /** True while the device has an open voice session (campaigns leave such devices for later). */
  inVoiceSession: (deviceId: string) => Promise<boolean>;
  firmwareBaseUrl: string;
  /** An announcement action's per-device gate and its rule for done. */
  announcements: AnnouncementCampaigns;
  logger: Logger;
  /** Phased rollouts: what each phase may do this round, and the sealed definition each call cites. */
  phases: PhaseRunner;
  /** The platform's cap on campaign dispatches per minute, and how many were made in the last one. */
  dispatchCap: { perMinute: number; dispatchedLastMinute: () => Promise<number> };
}

const LEASE = 'campaign-runner';

/** With no campaign running or paused, the runner looks this many rounds apart (a start waits at most that). */
const IDLE_ROUNDS = 5;

/**
 * Runs campaigns (DESIGN §3, in the manner of AWS IoT Jobs and hawkBit rollouts). One replica at a time holds the
 * runner's lease; all its state is in Postgres, so a restart or a SIGKILL of any service continues where it was,
 * and every device's call has an idempotency key per attempt, so nothing is ever sent twice.
 */
export class CampaignRunner {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private ticking: Promise<void> = Promise.resolve();
  private readonly lastCounts = new Map<string, string>();

  constructor(
    private readonly deps: CampaignRunnerDeps,
    private readonly everyMs: number,
  ) {}

  /** A round every `everyMs` while campaigns run; an idle runner (none active, or not its lease) every few. */
  start(): void {
    this.stopped = false;
    this.next(this.everyMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  private next(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().then((busy) => this.next(busy ? this.everyMs : this.everyMs * IDLE_ROUNDS));
    }, ms);
  }

  /** One round; answers whether a campaign is active (so the next round comes soon). */
  async tick(): Promise<boolean> {
    try {
      if (!(await this.deps.leases.acquire(LEASE))) return false; // another replica runs campaigns now
      const active = await this.deps.campaigns.active();
      for (const campaign of active) await this.advance(campaign);
      return active.length > 0;
    } catch (err) {
      this.deps.logger.warn({ err }, 'campaign round failed; retrying next round');
      return true;
    }
  }

  private async advance(c: CampaignRecord): Promise<void> {
    for (const target of await this.deps.campaigns.settled(c.id)) await this.settle(c, target);
    await this.deps.campaigns.skipOverdue(c.id);
    const counts = await this.deps.campaigns.counts(c.id);
    this.announce(c, counts);
    if (c.state !== 'running') return;
    const phase = await this.deps.phases.step(c);
    if (phase === 'hold') return;

    // The abort rule counts what the campaign counts as done (its doneWhen): acknowledged is done or failed.
    const finished = counts.verified + counts.acknowledged + counts.failed;
    if (finished >= c.abortRule.minDevices && counts.failed / finished > c.abortRule.failureRate) {
      const reason = `${counts.failed} of ${finished} finished devices failed (above ${Math.round(c.abortRule.failureRate * 100)} %)`;
      if (await this.deps.campaigns.finish(c.id, 'running', 'aborted', reason)) {
        await this.deps.campaigns.cancelPending(c.id, 'campaign aborted');
        this.deps.events.publish({
          type: 'campaign',
          campaignId: c.id,
          state: 'aborted',
          at: new Date().toISOString(),
        });
        await this.deps.webhooks
          .notify('campaign.aborted', { campaignId: c.id, name: c.name, reason })
          .catch(() => undefined);
      }
      return;
    }
    if (counts.pending + counts.waiting_for_device + counts.in_progress === 0) {
      if (
        await this.deps.campaigns.finish(
          c.id,
          'running',
          'completed',
          `${counts.verified} verified, ` +
            (counts.acknowledged > 0 ? `${counts.acknowledged} acknowledged, ` : '') +
            `${counts.failed} failed, ${counts.skipped} skipped` +
            (counts.rejected > 0
              ? `, ${counts.rejected} rejected: their tool changed since the approval`
              : ''),
        )
      ) {
        this.deps.events.publish({
          type: 'campaign',
          campaignId: c.id,
          state: 'completed',
          at: new Date().toISOString(),
        });
      }
      return;
    }
    let slots = devicesToStart(c.rollout, {
      started: counts.started,
      inProgress: counts.in_progress,
      startedLastMinute: counts.startedLastMinute,
    });
    if (slots <= 0) return;
    slots = capDispatches(
      slots,
      this.deps.dispatchCap.perMinute,
      await this.deps.dispatchCap.dispatchedLastMinute(),
    );
    if (slots <= 0) return;
    const phased = phase !== 'unphased';
    for (const candidate of await this.deps.campaigns.candidates(c.id, Math.max(slots * 4, 50), phased)) {
      if (slots <= 0) break;
      if (await this.startTarget(c, candidate)) slots--;
    }
  }

  /** True when the device was started (a call made for it). */
  private async startTarget(c: CampaignRecord, t: Candidate): Promise<boolean> {
    if (!t.online) {
      // DESIGN §3: offline devices wait with a deadline; they are not failures.
      if (t.state === 'pending')
        await this.deps.campaigns.moveTarget(
          t.id,
          ['pending'],
          'waiting_for_device',
          'offline: waiting for it',
          { deadlineS: c.deviceTimeoutS },
        );
      return false;
    }
    if (!inMaintenanceWindow(c.windows, t.timeZone)) return false;
    if (c.skipInSession && (await this.deps.inVoiceSession(t.deviceId))) return false;
    const request = await this.callFor(c, t);
    if (request && 'wait' in request) {
      await this.deps.campaigns.moveTarget(t.id, [t.state], t.state, request.wait);
      return false;
    }
    if (!request) {
      await this.deps.campaigns.moveTarget(
        t.id,
        ['pending', 'waiting_for_device'],
        'failed',
        c.action.kind === 'capability'
          ? `no tool of this device carries out "${c.action.capability}" (no profile maps it, no built-in tool)`
          : 'the campaign action cannot be built (firmware missing?)',
      );
      return false;
    }
    const seal = await this.deps.phases.seal(c.id);
    const result = await this.deps.calls.request({
      deviceId: t.deviceId,
      deliveryDeadlineMs: c.deviceTimeoutS * 1000,
      ...request,
      origin: 'campaign',
      campaignId: c.id,
      reason: `campaign "${c.name}"` + (seal ? ` (definition sha256:${seal})` : ''),
      idempotencyKey: `campaign:${c.id}:${t.deviceId}:${t.attempts + 1}`,
    });
    if (!result.ok) {
      await this.deps.campaigns.moveTarget(t.id, ['pending', 'waiting_for_device'], 'failed', result.message);
      return false;
    }
    return this.deps.campaigns.moveTarget(t.id, ['pending', 'waiting_for_device'], 'in_progress', null, {
      callId: result.callId,
      attempt: true,
      deadlineS: c.deviceTimeoutS,
    });
  }

  private async callFor(
    c: CampaignRecord,
    t: Candidate,
  ): Promise<
    | {
        tool: string;
        arguments: Record<string, unknown>;
        deliveryDeadlineMs?: number;
        context?: { gate: Record<string, unknown>[] };
      }
    | { wait: string }
    | undefined
  > {
    // The tool is the one the campaign's approval bound on each device (libs/domain campaignActionTool).
    const tool = campaignActionTool(c.action);
    switch (c.action.kind) {
      case 'tool':
        return { tool, arguments: c.action.arguments };
      case 'capability': {
        // Campaigns across families: the device's model profile names its tool and argument.
        const ctx = await this.deps.campaigns.capabilityContext(t.deviceId);
        const call = capabilityCall(c.action.capability, c.action.value, ctx.device, ctx.profiles, (name) =>
          ctx.tools.has(name),
        );
        return call && { tool: call.tool, arguments: call.arguments };
      }
      case 'reboot':
        return { tool, arguments: {} };
      case 'firmware': {
        const firmware = await this.deps.campaigns.firmware(c.action.firmwareId);
        if (!firmware) return undefined;
        if (c.action.via === 'ota') {
          await this.deps.campaigns.assignFirmware(t.deviceId, firmware.id, c.id);
          return { tool, arguments: {} };
        }
        return {
          tool,
          arguments: { url: `${this.deps.firmwareBaseUrl}/firmware/${firmware.sha256}.bin` },
        };
      }
      case 'announcement':
        return this.deps.announcements.prepare(c.name, c.action, t.deviceId, tool);
    }
  }

  /**
   * A device is done when its verdict counts as done for the campaign (its doneWhen: verified, or verified or
   * acknowledged); for firmware, when it runs the new version.
   */
  private async settle(c: CampaignRecord, t: SettledTarget): Promise<void> {
    let state: CampaignTargetState;
    let detail: string;
    const done =
      c.action.kind === 'announcement'
        ? await this.deps.announcements.done(c.action, t.id, t.verdict)
        : countsAsDone(t.verdict, c.doneWhen);
    if (done === 'acknowledged') {
      state = 'acknowledged';
      detail = `${c.action.kind === 'announcement' ? 'shown' : 'acknowledged'} (counted as done): ${t.verdictReason ?? ''}`;
    } else if (done === 'verified') {
      const expected =
        c.action.kind === 'firmware'
          ? (await this.deps.campaigns.firmware(c.action.firmwareId))?.version
          : undefined;
      if (expected !== undefined && t.firmwareVersion !== expected) {
        state = 'failed';
        detail = `came back running ${t.firmwareVersion ?? 'an unknown version'}, not ${expected}`;
      } else {
        state = 'verified';
        detail = t.verdictReason ?? 'verified';
      }
    } else if (t.verdict === 'undelivered') {
      state = 'skipped';
      detail = 'offline until its deadline';
    } else if (t.verdict === 'rejected' && t.verdictReason === CAMPAIGN_TOOL_CHANGED) {
      // DESIGN §4: not a failure of the device (no retry, not counted against the abort rule): what the device
      // declares now was never approved; the campaign counts it and can ask approval for it again.
      state = 'rejected';
      detail = CAMPAIGN_TOOL_CHANGED;
    } else {
      state = 'failed';
      detail = `${t.verdict}: ${t.verdictReason ?? ''}`;
    }
    if (state === 'failed' && t.attempts <= c.retries) {
      await this.deps.campaigns.moveTarget(t.id, ['in_progress'], 'pending', `retrying after ${detail}`);
      return;
    }
    await this.deps.campaigns.moveTarget(t.id, ['in_progress'], state, detail);
    if (c.action.kind === 'firmware' && c.action.via === 'ota')
      await this.deps.campaigns.unassignFirmware(t.deviceId, c.id);
  }

  private announce(c: CampaignRecord, counts: Record<string, number>): void {
    const key = JSON.stringify(counts);
    if (this.lastCounts.get(c.id) === key) return;
    this.lastCounts.set(c.id, key);
    const { startedLastMinute: _r, started: _s, ...byState } = counts;
    this.deps.events.publish({
      type: 'campaign',
      campaignId: c.id,
      state: c.state,
      counts: byState,
      at: new Date().toISOString(),
    });
  }
}

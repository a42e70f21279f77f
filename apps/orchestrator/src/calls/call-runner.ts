import { contextFromTraceparent, inSpan } from '@fleet/telemetry';
import type { DeviceRuntime } from '../devices/device-runtime';
import { LeaseLostError } from '../evidence/commit-queue';
import { modelRecipeFor } from '../model-readbacks/model-readbacks';
import { recipeFor } from '../verification/recipes';
import { decide } from './call-decision';
import { execute, verifyRebootLike, type SendPlan } from './call-execution';
import type { CallRecord } from './call-record';
import type { Conclusion } from './call-writes';
import { decisionRow } from './evidence-builders';
import type { PipelineContext } from './pipeline-context';
import { createPrerequisite, priorStateOf } from './prerequisites';
import { effectRow } from './response-rows';

/**
 * The call pipeline (DESIGN §1, §4): policy → validate → send → pair → verify → evidence → verdict, one call at a
 * time per device (its lane). A call is woken by its BullMQ job, by its device coming back, by the sweep; waking
 * it twice is harmless: every step starts from the row's state.
 */
export class CallRunner {
  private readonly scheduled = new Set<string>();

  constructor(private readonly ctx: PipelineContext) {}

  /** Queues the call in its device's lane, unless it is queued there already. */
  schedule(callId: string, deviceId: string): void {
    if (this.scheduled.has(callId)) return;
    const device = this.ctx.devices.get(deviceId);
    if (!device) return; // another replica's partition
    this.scheduled.add(callId);
    device.lane
      .run(() => this.process(callId, device))
      .catch((err: unknown) => {
        if (err instanceof LeaseLostError) return; // the new owner takes it from here
        this.ctx.logger.error({ err, callId }, 'call step failed; the sweep retries it');
      })
      .finally(() => this.scheduled.delete(callId));
  }

  /** Runs one call as far as it can go now (inside the device's lane), in the call's own trace. */
  async process(callId: string, device: DeviceRuntime): Promise<void> {
    const call = await this.ctx.calls.load(callId);
    if (!call || call.verdict) return;
    return inSpan(
      `call ${call.tool}`,
      {
        parent: contextFromTraceparent(call.traceparent),
        attributes: {
          'call.id': call.id,
          'call.state': call.state,
          'device.id': call.deviceId,
          'call.tool': call.tool,
          'call.origin': call.origin,
        },
      },
      () => this.step(call, device),
    );
  }

  private async step(call: CallRecord, device: DeviceRuntime): Promise<void> {
    if (call.cancelledBy) return this.conclude(call, this.cancelled(call));
    switch (call.state) {
      case 'queued':
      case 'waiting_for_device':
      case 'awaiting_approval':
        return this.decideAndRun(call, device);
      case 'sending':
      case 'sent':
      case 'verifying':
        return this.resume(call, device);
      case 'finished':
        this.ctx.logger.warn({ callId: call.id }, 'a finished call without a verdict or a cancellation');
        return;
    }
  }

  private async decideAndRun(call: CallRecord, device: DeviceRuntime): Promise<void> {
    const decision = await decide(this.ctx, call, device);
    switch (decision.kind) {
      case 'conclude':
        return this.conclude(call, decision.conclusion);
      case 'wait':
        return this.park(call, decision.state, decision.rows, decision.openApproval === true);
      case 'send': {
        const plan: SendPlan = {
          rows: decision.rows,
          recipe: decision.recipe,
          rules: decision.rules,
          ...(decision.approval ? { approval: decision.approval } : {}),
          ...(decision.expectedVersion ? { expectedVersion: decision.expectedVersion } : {}),
        };
        for (const need of decision.prerequisites) {
          const prerequisite = await this.runPrerequisite(call, device, need);
          if (!prerequisite.ok) {
            const reason = `the prerequisite ${need.rule.requires} ended ${prerequisite.verdict}`;
            return this.conclude(call, {
              verdict: 'rejected',
              reason,
              rows: {
                discovery: decision.rows.discovery,
                decision: decisionRow(call, 'rejected', decision.rules, { reason }),
              },
            });
          }
          plan.priorState = prerequisite.priorState;
        }
        const sent = await execute(this.ctx, call, device, plan);
        if (!sent) return this.afterLostRace(call.id);
        return;
      }
    }
  }

  private async runPrerequisite(
    call: CallRecord,
    device: DeviceRuntime,
    need: Parameters<typeof createPrerequisite>[2],
  ): Promise<{ ok: true; priorState: NonNullable<SendPlan['priorState']> } | { ok: false; verdict: string }> {
    const id = await createPrerequisite(this.ctx, call, need);
    await this.process(id, device);
    const done = await this.ctx.calls.load(id);
    const fresh = device.fresh.get(need.rule.requires);
    if (done?.verdict === 'verified' && fresh)
      return { ok: true, priorState: priorStateOf(done, fresh.result, new Date(fresh.at)) };
    return { ok: false, verdict: done?.verdict ?? 'unfinished' };
  }

  /** After a takeover (or a wake while verifying): the request may have gone out; only the effect can tell. */
  private async resume(call: CallRecord, device: DeviceRuntime): Promise<void> {
    const recipe = modelRecipeFor(this.ctx.config.MODEL_READBACKS, device, call.tool) ?? recipeFor(call.tool);
    if (recipe.kind === 'reboot' || recipe.kind === 'upgrade') {
      const window =
        recipe.kind === 'upgrade' ? this.ctx.config.UPGRADE_VERIFY_MS : this.ctx.config.REBOOT_VERIFY_MS;
      const deadline = call.effectDeadlineAt ?? new Date((call.sentAt ?? call.createdAt).getTime() + window);
      if (!call.written.has('response')) {
        await this.ctx.writes.park(
          call,
          'verifying',
          {
            response: {
              outcome: 'no_reply',
              reason: 'the replica that sent it stopped before a reply was paired',
              ...(call.connectionId ? { connectionId: call.connectionId } : {}),
            },
          },
          deadline,
        );
      }
      const expected = recipe.kind === 'upgrade' ? await this.expectedVersion(call) : undefined;
      await verifyRebootLike(this.ctx, call, device, expected, deadline, () => false);
      return;
    }
    return this.conclude(call, {
      verdict: 'no_response',
      reason: 'the replica that sent it stopped before a reply was paired; nothing settles it now',
      rows: {
        response: { outcome: 'no_reply', reason: 'the sending replica stopped before pairing the reply' },
        effect: effectRow(
          recipe.kind === 'unverifiable' ? 'unverifiable' : 'not_applicable',
          'not checked after the takeover',
        ),
      },
    });
  }

  private async expectedVersion(call: CallRecord): Promise<string | undefined> {
    const sha = /\/firmware\/([0-9a-f]{64})\.bin$/.exec(String(call.arguments['url']))?.[1];
    return sha ? (await this.ctx.calls.firmwareBySha(sha))?.version : undefined;
  }

  private async park(
    call: CallRecord,
    state: 'waiting_for_device' | 'awaiting_approval',
    rows: Parameters<PipelineContext['writes']['park']>[2],
    openApproval: boolean,
  ): Promise<void> {
    if (call.state === state && Object.keys(rows).every((s) => call.written.has(s as never)) && !openApproval)
      return;
    const parked = openApproval
      ? await this.ctx.writes.parkAwaitingApproval(call, rows)
      : await this.ctx.writes.park(call, state, rows);
    if (!parked) return this.afterLostRace(call.id);
    this.ctx.events.publish({
      type: 'call',
      callId: call.id,
      deviceId: call.deviceId,
      tool: call.tool,
      state,
      at: new Date().toISOString(),
    });
    if (typeof parked === 'string') {
      this.ctx.events.publish({
        type: 'approval',
        approvalId: parked,
        callId: call.id,
        state: 'pending',
        at: new Date().toISOString(),
      });
      await this.ctx.webhooks
        .notify('approval.waiting', {
          approvalId: parked,
          callId: call.id,
          deviceId: call.deviceId,
          tool: call.tool,
          arguments: call.arguments,
        })
        .catch((err: unknown) => this.ctx.logger.warn({ err }, 'cannot queue the approval webhook'));
    }
  }

  private async conclude(call: CallRecord, conclusion: Conclusion): Promise<void> {
    await this.ctx.writes.seal(call, conclusion);
  }

  /** The call changed under us (cancelled, sealed): take it again from its row. */
  private async afterLostRace(callId: string): Promise<void> {
    const call = await this.ctx.calls.load(callId);
    if (call && !call.verdict && call.cancelledBy) await this.conclude(call, this.cancelled(call));
  }

  private cancelled(call: CallRecord): Conclusion {
    const reason = `cancelled by ${call.cancelledBy}: ${call.cancelReason ?? 'no reason given'}`;
    return {
      verdict: 'cancelled',
      reason,
      rows: { decision: decisionRow(call, 'cancelled', [], { reason }) },
    };
  }
}

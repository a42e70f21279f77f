import { ANNOUNCE_TOOL, SYSTEM_REBOOT_TOOL } from '@fleet/domain';
import type { PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import { contextFromTraceparent, inSpan, type Logger } from '@fleet/telemetry';
import type { OrchestratorConfig } from '../config';
import type { DeviceRegistry } from '../devices/device-registry';
import type { DeviceRuntime } from '../devices/device-runtime';
import { LeaseLostError } from '../evidence/commit-queue';
import { concludeCancelled, concludeUnpaired } from '../verification/conclude';
import {
  decisionRow,
  sentParameters,
  takenOverEffect,
  takenOverRebootResponse,
  takenOverResponse,
} from '../verification/evidence-rows';
import { toolStanding } from '../verification/profile-recipe';
import type { Recipe } from '../verification/recipes';
import { CallAnnouncer } from './call-announcer';
import { decide, type Decision, type DecisionPorts } from './call-decision';
import { replyAfterTakeover, sendRebootLike, sendToolCall, type ExecutionPorts } from './call-execution';
import type { BusyLock } from './busy-lock';
import type { CallRecord } from './call-record';
import type { CallRepository, PolicyContext } from './call-repository';
import type { Conclusion, CallWrites, PreflightFindings, StageRows } from './call-writes';
import { clearToSend, type ClearToSend } from './clear-to-send';
import { registryVersionOf } from './preflight';
import type { PrerequisitePorts } from './prerequisites';
import { verifyRebootLike, type RebootRequest } from './reboot-verification';
import { concludeToolCall } from './tool-call-conclusion';

/** What the runner needs besides what deciding and executing need. */
export interface RunnerPorts extends ExecutionPorts, PrerequisitePorts {
  config: DecisionPorts['config'] & Pick<OrchestratorConfig, 'UPGRADE_VERIFY_MS' | 'REBOOT_VERIFY_MS'>;
  devices: Pick<DeviceRegistry, 'get'>;
  calls: CallRepository;
  writes: CallWrites;
  events: Pick<PlatformEventBus, 'publish'>;
  webhooks: Pick<WebhookNotifier, 'notify'>;
  /** Announcement calls run apart from the tool pipeline (announcements/announcement-runner). */
  announcements: { step(call: CallRecord, device: DeviceRuntime): Promise<void> };
  busyLock: Pick<BusyLock, 'check'>;
  logger: Logger;
}

type SendDecision = Extract<Decision, { kind: 'send' }>;

/**
 * The call pipeline (DESIGN §1, §4): policy → validate → send → pair → verify → evidence → verdict, one call at a
 * time per device (its lane). The runner is the only code that changes a call's state and the only publisher
 * of call events: deciding returns a decision, executing returns what it observed, the verdict table judges.
 * A call is woken by its BullMQ job, by its device coming back, by the sweep; waking it twice is harmless:
 * every step starts from the row's state.
 */
export class CallRunner {
  private readonly scheduled = new Set<string>();
  private readonly announce: CallAnnouncer;

  constructor(private readonly ports: RunnerPorts) {
    this.announce = new CallAnnouncer(ports);
  }

  /** Queues the call in its device's lane, unless it is queued there already. */
  schedule(callId: string, deviceId: string): void {
    if (this.scheduled.has(callId)) return;
    const device = this.ports.devices.get(deviceId);
    if (!device) return; // another replica's partition
    this.scheduled.add(callId);
    device.lane
      .run(() => this.process(callId, device))
      .catch((err: unknown) => {
        if (err instanceof LeaseLostError) return; // the new owner takes it from here
        this.ports.logger.error({ err, callId }, 'call step failed; the sweep retries it');
      })
      .finally(() => this.scheduled.delete(callId));
  }

  /** Runs one call as far as it can go now (inside the device's lane), in the call's own trace. */
  async process(callId: string, device: DeviceRuntime): Promise<void> {
    const loaded = await this.ports.calls.loadToRun(callId);
    if (!loaded || loaded.call.verdict) return;
    // A wake-up names the device whose lane runs the call; one that names another device than the row's is not
    // believed (a call is only ever sent to its own device).
    if (loaded.call.deviceId !== device.mac) {
      this.ports.logger.warn(
        { callId, device: device.mac },
        'a wake-up for a call of another device: ignored',
      );
      return;
    }
    await this.run(loaded.call, device, loaded.policy);
  }

  private run(call: CallRecord, device: DeviceRuntime, policy: PolicyContext): Promise<void> {
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
      () => this.step(call, device, policy),
    );
  }

  private async step(call: CallRecord, device: DeviceRuntime, policy: PolicyContext): Promise<void> {
    if (call.cancelledBy) return this.conclude(call, concludeCancelled(call));
    if (call.tool === ANNOUNCE_TOOL) return this.ports.announcements.step(call, device);
    switch (call.state) {
      case 'queued':
      case 'waiting_for_device':
      case 'awaiting_approval':
        return this.decideAndRun(call, device, policy);
      case 'sending':
      case 'sent':
      case 'verifying':
        return this.resume(call, device, policy);
      case 'finished':
        this.ports.logger.warn({ callId: call.id }, 'a finished call without a verdict or a cancellation');
        return;
    }
  }

  private async decideAndRun(call: CallRecord, device: DeviceRuntime, policy: PolicyContext): Promise<void> {
    const decision = await decide(this.ports, call, device, policy);
    switch (decision.kind) {
      case 'conclude':
        return this.conclude(call, decision.conclusion, decision.approval);
      case 'wait_for_device':
        return this.park(call, 'waiting_for_device', {});
      case 'await_approval':
        return this.awaitApproval(call, decision.rows, decision.found);
      case 'send':
        return this.runPrerequisitesThenSend(call, device, decision, policy);
    }
  }

  private async runPrerequisitesThenSend(
    call: CallRecord,
    device: DeviceRuntime,
    decision: SendDecision,
    policy: PolicyContext,
  ) {
    const clear = await clearToSend(this.ports, call, device, decision, async (prerequisite) => {
      // Run inline in this lane; a wake-up for it meanwhile (a sweep, a takeover) must not run it twice.
      this.scheduled.add(prerequisite.id);
      try {
        await this.run(prerequisite, device, policy); // the same device, read moments ago
      } finally {
        this.scheduled.delete(prerequisite.id);
      }
    });
    if (clear.kind === 'hold') return this.park(call, 'waiting_for_device', {});
    if (clear.kind === 'conclude') return this.conclude(call, clear.conclusion);
    return this.send(call, device, clear.decision, clear.priorState);
  }

  /** The "sending" row, the request, `sent`, the reply, the effect check, the verdict. */
  private async send(
    call: CallRecord,
    device: DeviceRuntime,
    decision: SendDecision,
    priorState: Extract<ClearToSend, { kind: 'send' }>['priorState'],
  ): Promise<void> {
    const { recipe } = decision;
    const rebootLike = recipe.kind === 'reboot' || recipe.kind === 'upgrade';
    const jsonrpcId = call.tool === SYSTEM_REBOOT_TOOL ? null : await this.ports.link.allocateId(device.mac);
    const sent = jsonrpcId === null ? { command: 'reboot' } : { name: call.tool, arguments: call.arguments };
    const marked = await this.ports.writes.markSending(
      call,
      jsonrpcId,
      device.connectionId,
      device.catalog?.versionId,
      {
        discovery: decision.rows.discovery,
        decision: decisionRow(call, 'allowed', decision.rules, {
          ...(decision.approval ? { approval: decision.approval } : {}),
          ...(priorState ? { priorState } : {}),
        }),
        parameters: sentParameters(decision.rows.parameters, sent),
      },
    );
    if (!marked) return this.afterLostRace(call.id);
    this.announce.decision(call, decision.approval);
    const published = () => this.markSent(call);
    if (rebootLike) {
      const request = await sendRebootLike(this.ports, call, device, jsonrpcId, published);
      try {
        return await this.verifyRebootLike(call, device, recipe, request, decision.expectedVersion);
      } finally {
        request.stopListening();
      }
    }
    const reply = await sendToolCall(this.ports, call, device, jsonrpcId!, published);
    return this.conclude(call, await concludeToolCall(this.ports, call, device, recipe, reply));
  }

  /**
   * The request left. Announced now, with the `sending` that preceded it (one notice turn for live views: the
   * two are a few microseconds apart); the row says `sent` if the call still waits for its device a moment later
   * (CallWrites.markSent).
   */
  private markSent(call: CallRecord): void {
    this.announce.state(call, 'sending');
    this.announce.state(call, 'sent');
    this.ports.writes.markSent(call, (err) => {
      if (!(err instanceof LeaseLostError))
        this.ports.logger.warn({ err, callId: call.id }, 'cannot mark the call sent');
    });
  }

  /** Reboots and upgrades: the `verifying` state once, then what the platform sees next (reboot-verification). */
  private async verifyRebootLike(
    call: CallRecord,
    device: DeviceRuntime,
    recipe: Recipe,
    request: RebootRequest,
    expectedVersion: string | undefined,
  ): Promise<void> {
    const conclusion = await verifyRebootLike(
      this.ports,
      call,
      device,
      recipe,
      request,
      expectedVersion,
      async (deadline) => {
        if (call.written.has('response') && call.state === 'verifying') return true;
        if (!(await this.ports.writes.park(call, 'verifying', { response: request.response }, deadline))) {
          await this.afterLostRace(call.id);
          return false;
        }
        this.announce.state(call, 'verifying');
        return true;
      },
    );
    if (conclusion) return this.conclude(call, conclusion);
  }

  /** After a takeover (or a wake while verifying): the request may have gone out; only the effect can tell. */
  private async resume(call: CallRecord, device: DeviceRuntime, policy: PolicyContext): Promise<void> {
    const { recipe } = toolStanding(device, call.tool, policy);
    if (recipe.kind === 'reboot' || recipe.kind === 'upgrade') {
      const response = takenOverRebootResponse(call.connectionId);
      const expected =
        recipe.kind === 'upgrade' ? await registryVersionOf(this.ports, call.arguments['url']) : undefined;
      return this.verifyRebootLike(
        call,
        device,
        recipe,
        { response, reply: { kind: 'none', reason: response.reason }, lateTrue: () => false },
        expected,
      );
    }
    // A tools/call that went out from a replica that then stopped: its reply may have been heard meanwhile.
    const reply = call.state === 'verifying' ? undefined : await replyAfterTakeover(this.ports, call, device);
    if (reply && reply.reply.kind !== 'none')
      return this.conclude(call, await concludeToolCall(this.ports, call, device, recipe, reply));
    return this.conclude(
      call,
      concludeUnpaired(
        recipe,
        'the replica that sent it stopped before a reply was paired; nothing settles it now',
        { response: takenOverResponse(), effect: takenOverEffect(recipe) },
      ),
    );
  }

  private async park(call: CallRecord, state: 'waiting_for_device', rows: StageRows): Promise<void> {
    if (call.state === state && Object.keys(rows).every((s) => call.written.has(s as never))) return;
    if (!(await this.ports.writes.park(call, state, rows))) return this.afterLostRace(call.id);
    this.announce.state(call, state);
  }

  /** Only a call that passed pre-flight waits for a person; people hear of it once (DESIGN §4). */
  private async awaitApproval(call: CallRecord, rows: StageRows, found: PreflightFindings): Promise<void> {
    const wasWaiting = call.state === 'awaiting_approval';
    const shown = await this.ports.writes.awaitApproval(call, rows, found);
    if (shown === false) return this.afterLostRace(call.id);
    if (!wasWaiting || typeof shown === 'string') this.announce.state(call, 'awaiting_approval');
    if (typeof shown === 'string') await this.announce.approvalWaiting(call, shown, found);
  }

  private async conclude(
    call: CallRecord,
    conclusion: Conclusion,
    approval?: SendDecision['approval'],
  ): Promise<void> {
    if (!(await this.ports.writes.seal(call, conclusion))) return;
    this.announce.decision(call, approval);
    this.announce.sealed(call, conclusion.verdict);
  }

  /** The call changed under us (cancelled, sealed): take it again from its row. */
  private async afterLostRace(callId: string): Promise<void> {
    const call = await this.ports.calls.load(callId);
    if (call && !call.verdict && call.cancelledBy) await this.conclude(call, concludeCancelled(call));
  }
}

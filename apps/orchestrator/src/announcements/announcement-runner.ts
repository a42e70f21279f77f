import {
  alerts,
  announcementArgumentsSchema,
  speaks,
  type AnnouncementArguments,
  type DecisionPayload,
  type PlatformEvent,
} from '@fleet/domain';
import { deviceP2pTopic, encodeServerMessage, serverMessage } from '@fleet/protocol';
import type { Logger } from '@fleet/telemetry';
import type { CallRecord } from '../calls/call-record';
import type { CallRepository } from '../calls/call-repository';
import type { CallWrites, Conclusion, StageRows } from '../calls/call-writes';
import type { DeviceRuntime } from '../devices/device-runtime';
import { concludeNotSent } from '../verification/conclude';
import {
  judgeAnnouncement,
  type AnnouncementObservation,
  type SpokenDelivery,
} from '../verification/announcement-judgement';
import type { AnnouncementRepository } from './announcement.repository';
import { announcementApproval } from './announcement-approval';
import {
  alertResponse,
  announcementDiscovery,
  announcementEffect,
  announcementParameters,
  decisionRow,
  spokenResponse,
} from '../verification/evidence-rows';

/** The alert's title line when the request gave none. */
const DEFAULT_TITLES: Record<string, string> = { zh: '通知', en: 'Announcement' };

export interface AnnouncementPorts {
  writes: Pick<CallWrites, 'seal' | 'park' | 'markSending'>;
  announcements: Pick<AnnouncementRepository, 'facts'>;
  approvals: Pick<CallRepository, 'approvalOfCall'>;
  mqtt: { publish(topic: string, message: string, opts: { qos: 0 }): unknown };
  publish: (event: PlatformEvent) => void;
  logger: Logger;
  /** How long speech that began may take to be seen through (its playback and the device's answer). */
  playbackMaxMs: number;
}

type Parked = 'waiting_for_device' | 'verifying';

/**
 * Runs announcement calls (tool `platform.announce`) inside the call pipeline's lane of their device. The call
 * row is the record and the runner its one writer (DESIGN §1): an alert is published here on the connection the
 * device holds; speech is the voice worker's, which owns the session a device opens and writes how far it got
 * (announcement_delivery); the runner turns that into the response and effect rows and the verdict. Every wait is
 * a state with a due time the sweep knows (held back: `hold_until`; a session: the deadline; playback: the
 * effect deadline), so nothing waits in memory.
 */
export class AnnouncementRunner {
  constructor(private readonly ports: AnnouncementPorts) {}

  async step(call: CallRecord, device: DeviceRuntime): Promise<void> {
    const parsed = announcementArgumentsSchema.safeParse(call.arguments);
    if (!parsed.success)
      return this.conclude(
        call,
        concludeNotSent(
          'schema',
          `not an announcement: ${parsed.error.issues.map((i) => i.path.join('.') || i.message).join(', ')}`,
          {},
        ),
      );
    const args = parsed.data;
    const now = new Date();
    const facts = await this.ports.announcements.facts(call.id);
    // listenai.md: the link carries MCP only, no alert and no audio.
    if (facts.dialect !== 'xiaozhi' || device.dialect !== 'xiaozhi')
      return this.refuse(
        call,
        args,
        device,
        'dialect',
        'the ListenAI link carries MCP only: no alert, no speech',
      );
    let approval: DecisionPayload['approval'];
    if (call.state === 'awaiting_approval') {
      const outcome = announcementApproval(call, await this.ports.approvals.approvalOfCall(call.id), now);
      if (outcome.kind === 'wait') {
        if (now < call.deadlineAt) return; // the sweep looks again at the approval's expiry or the deadline
        return this.conclude(
          call,
          concludeNotSent('approval_lapsed', 'the delivery deadline passed while it waited for approval', {}),
        );
      }
      if (outcome.kind === 'refused')
        return this.conclude(
          call,
          concludeNotSent(outcome.cause, outcome.detail, {
            discovery: announcementDiscovery(device),
            decision: decisionRow(
              call,
              outcome.cause === 'approval_lapsed' ? 'expired' : 'rejected',
              this.rules(call),
              { reason: outcome.detail, ...(outcome.approval ? { approval: outcome.approval } : {}) },
            ),
          }),
        );
      approval = outcome.approval;
    }
    const waiting = call.state === 'queued' || call.state === 'awaiting_approval';
    if (waiting && facts.holdUntil && facts.holdUntil > now) return; // the sweep wakes it then
    const alertGone = call.state === 'sending' || call.state === 'sent' || call.state === 'verifying';
    if (alerts(args.how) && !alertGone) return this.alert(call, device, args, now, approval);
    if (!speaks(args.how)) {
      // The replica that published stopped before sealing: the alert left or did not; the row says which state.
      const judged = judgeAnnouncement({ kind: 'alert_unrecorded' });
      return this.conclude(call, { verdict: judged.verdict, reason: judged.reason, rows: {} });
    }
    return this.followSpeech(call, device, args, facts.delivery, now, approval);
  }

  private async alert(
    call: CallRecord,
    device: DeviceRuntime,
    args: AnnouncementArguments,
    now: Date,
    approval: DecisionPayload['approval'],
  ): Promise<void> {
    const rows = this.decidedRows(call, args, device, approval);
    if (!device.online || !device.connectionId) {
      if (now >= call.deadlineAt)
        return this.conclude(
          call,
          concludeNotSent(
            'device_unreachable',
            `the device was not connected before ${call.deadlineAt.toISOString()}`,
            {
              discovery: rows.discovery,
              decision: decisionRow(call, 'undelivered', this.rules(call), {
                reason: 'the device was offline until the deadline',
              }),
            },
          ),
        );
      return this.park(call, 'waiting_for_device', { discovery: rows.discovery });
    }
    const message = serverMessage.alert(
      '',
      args.title ?? DEFAULT_TITLES[args.language.slice(0, 2)] ?? DEFAULT_TITLES['en']!,
      args.text,
      args.emotion ?? 'neutral',
    );
    const text = encodeServerMessage(message);
    // DESIGN §3: the "sending" row first; once committed the alert is never published twice.
    const marked = await this.ports.writes.markSending(call, null, device.connectionId, undefined, {
      ...rows,
      parameters: announcementParameters(args, message),
    });
    if (!marked) return;
    this.ports.mqtt.publish(deviceP2pTopic(device.mac), text, { qos: 0 });
    const sentAt = call.sentAt ?? new Date();
    this.announce(call, 'sent');
    if (!speaks(args.how)) {
      const judged = judgeAnnouncement({ kind: 'alert_published', connectionId: device.connectionId });
      return this.conclude(call, {
        verdict: judged.verdict,
        reason: judged.reason,
        rows: {
          response: alertResponse(device.connectionId, sentAt),
          effect: announcementEffect('alert_published', judged.effect),
        },
      });
    }
    return this.park(call, 'verifying', {}, call.deadlineAt);
  }

  /** Speech: the voice worker's row says how far it got; the runner only waits, and judges at the end. */
  private async followSpeech(
    call: CallRecord,
    device: DeviceRuntime,
    args: AnnouncementArguments,
    delivery: SpokenDelivery | undefined,
    now: Date,
    approval: DecisionPayload['approval'],
  ): Promise<void> {
    const alert = { connectionId: call.connectionId, sentAt: call.sentAt };
    const seal = (observation: AnnouncementObservation) => {
      const judged = judgeAnnouncement(observation);
      return this.conclude(call, {
        verdict: judged.verdict,
        reason: judged.reason,
        rows: {
          ...(call.written.has('decision') ? {} : this.decidedRows(call, args, device, approval)),
          response: spokenResponse(delivery, alert),
          effect:
            judged.verdict === 'undelivered'
              ? announcementEffect('playback_observed', judged.effect)
              : announcementEffect('playback_observed', judged.effect, delivery?.heard ?? 'nothing'),
        },
      });
    };
    if (delivery?.finishedAt) return seal({ kind: 'spoken', how: args.how, delivery });
    if (delivery) {
      const until = new Date(delivery.speakingAt.getTime() + this.ports.playbackMaxMs);
      if (now >= until) return seal({ kind: 'playback_unfinished', how: args.how, delivery });
      return this.park(call, 'verifying', {}, until);
    }
    if (now >= call.deadlineAt) return seal({ kind: 'no_session', how: args.how, deadline: call.deadlineAt });
    // Waiting for the device to open a session (xiaozhi §1.4: only it can); the voice worker claims the call then.
    if (call.state === 'verifying') return this.park(call, 'verifying', {}, call.deadlineAt);
    return this.park(call, 'waiting_for_device', this.decidedRows(call, args, device, approval));
  }

  private decidedRows(
    call: CallRecord,
    args: AnnouncementArguments,
    device: DeviceRuntime,
    approval?: DecisionPayload['approval'],
  ): StageRows {
    return {
      discovery: announcementDiscovery(device),
      decision: decisionRow(call, 'allowed', this.rules(call), approval ? { approval } : {}),
      parameters: announcementParameters(args, undefined),
    };
  }

  /** What the API's gate found at creation (role, size, rates, quiet hours), carried in the call's request. */
  private rules(call: CallRecord): DecisionPayload['rules'] {
    return (call.requestContext?.gate ?? []) as DecisionPayload['rules'];
  }

  private refuse(
    call: CallRecord,
    args: AnnouncementArguments,
    device: DeviceRuntime,
    rule: string,
    detail: string,
  ): Promise<void> {
    return this.conclude(
      call,
      concludeNotSent('policy', detail, {
        discovery: announcementDiscovery(device),
        decision: decisionRow(call, 'rejected', [{ rule, result: 'refused', detail }], { reason: detail }),
        parameters: announcementParameters(args, undefined),
      }),
    );
  }

  private async park(call: CallRecord, to: Parked, rows: StageRows, until?: Date): Promise<void> {
    const same =
      call.state === to &&
      (until === undefined || call.effectDeadlineAt?.getTime() === until.getTime()) &&
      Object.keys(rows).every((s) => call.written.has(s as never));
    if (same) return;
    if (await this.ports.writes.park(call, to, rows, until)) this.announce(call, to);
  }

  private async conclude(call: CallRecord, conclusion: Conclusion): Promise<void> {
    if (!(await this.ports.writes.seal(call, conclusion))) return;
    this.ports.publish({
      type: 'call',
      callId: call.id,
      deviceId: call.deviceId,
      tool: call.tool,
      state: 'finished',
      verdict: conclusion.verdict,
      at: new Date().toISOString(),
    });
  }

  private announce(call: CallRecord, state: 'waiting_for_device' | 'sent' | 'verifying'): void {
    this.ports.publish({
      type: 'call',
      callId: call.id,
      deviceId: call.deviceId,
      tool: call.tool,
      state,
      at: new Date().toISOString(),
    });
  }
}

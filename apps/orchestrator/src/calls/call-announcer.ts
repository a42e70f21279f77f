import type { PlatformEvent, Verdict } from '@fleet/domain';
import type { PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import type { Logger } from '@fleet/telemetry';
import type { CallRecord } from './call-record';
import type { PreflightFindings } from './call-writes';
import type { Decision } from './call-decision';

type AnnouncedState = 'waiting_for_device' | 'awaiting_approval' | 'sending' | 'sent' | 'verifying';
type DecidedApproval = Extract<Decision, { kind: 'send' }>['approval'];

/**
 * What live views and webhooks hear of a call (DESIGN §1: the runner is the one publisher of call events; this
 * is how it speaks). Each notice is sent after the row it tells of is committed.
 */
export class CallAnnouncer {
  constructor(
    private readonly ports: {
      events: Pick<PlatformEventBus, 'publish'>;
      webhooks: Pick<WebhookNotifier, 'notify'>;
      logger: Logger;
    },
  ) {}

  state(call: CallRecord, state: AnnouncedState): void {
    this.publish({
      type: 'call',
      callId: call.id,
      deviceId: call.deviceId,
      tool: call.tool,
      state,
      at: new Date().toISOString(),
    });
  }

  sealed(call: CallRecord, verdict: Verdict): void {
    this.publish({
      type: 'call',
      callId: call.id,
      deviceId: call.deviceId,
      tool: call.tool,
      state: 'finished',
      verdict,
      at: new Date().toISOString(),
    });
  }

  /** A person's decision (or its lapse), announced once the runner has acted on it. */
  decision(call: CallRecord, approval: DecidedApproval): void {
    if (!approval?.id || call.campaignId) return;
    this.publish({
      type: 'approval',
      approvalId: approval.id,
      callId: call.id,
      state: approval.state,
      at: new Date().toISOString(),
    });
  }

  /** Only a call that passed pre-flight waits for a person; people hear of it once (DESIGN §4). */
  async approvalWaiting(call: CallRecord, approvalId: string, found: PreflightFindings): Promise<void> {
    this.publish({
      type: 'approval',
      approvalId,
      callId: call.id,
      state: 'pending',
      at: new Date().toISOString(),
    });
    await this.ports.webhooks
      .notify('approval.waiting', {
        approvalId,
        callId: call.id,
        deviceId: call.deviceId,
        tool: call.tool,
        arguments: call.arguments,
        preflight: found.findings,
      })
      .catch((err: unknown) => this.ports.logger.warn({ err }, 'cannot queue the approval webhook'));
  }

  private publish(event: PlatformEvent): void {
    this.ports.events.publish(event);
  }
}

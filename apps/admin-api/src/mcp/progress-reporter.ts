import type { CallState } from '@fleet/domain';
import type { CallProgressRow } from './call-progress.repository';
import type { ToolExtra } from './tool-results';

// MCP progress must only grow: each state has its step, and a step is reported once.
const STEP: Record<CallState, number> = {
  queued: 1,
  awaiting_approval: 2,
  waiting_for_device: 2,
  sending: 3,
  sent: 4,
  verifying: 5,
  finished: 6,
};
const TOTAL = 6;

/** Tells a client that asked for progress (it sent a progressToken) where its call is. */
export class ProgressReporter {
  private step = 0;

  constructor(
    private readonly extra: ToolExtra,
    private readonly callId: string,
  ) {}

  async report(row: Pick<CallProgressRow, 'state' | 'verdict'> & { deadlineAt?: Date }): Promise<void> {
    const token = this.extra._meta?.progressToken;
    const step = STEP[row.state];
    if (token === undefined || step <= this.step) return;
    this.step = step;
    // Best effort: a client that went away still has its call, which goes on and stays readable.
    await this.extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: step, total: TOTAL, message: this.words(row) },
      })
      .catch(() => undefined);
  }

  private words(row: Pick<CallProgressRow, 'state' | 'verdict'> & { deadlineAt?: Date }): string {
    const call = `call ${this.callId}`;
    switch (row.state) {
      case 'queued':
        return `${call} queued: the orchestrator takes it up next; cancelling the request withdraws it`;
      case 'awaiting_approval':
        return `${call} awaiting_approval: waiting for a person to approve it`;
      case 'waiting_for_device':
        return (
          `${call} waiting_for_device: the device is offline or busy; it is sent when the device is back` +
          `${row.deadlineAt ? `, until ${row.deadlineAt.toISOString()}` : ''}; cancelling the request withdraws ` +
          'it until it is sent'
        );
      case 'sending':
        return `${call} sending: it is going out to the device now and can no longer be cancelled`;
      case 'sent':
        return `${call} sent: waiting for the device's reply`;
      case 'verifying':
        return `${call} verifying: the device answered; the platform is checking the effect`;
      case 'finished':
        return `${call} finished${row.verdict ? `: ${row.verdict}` : ''}`;
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { EventWaits } from '../events/event-waits';
import { CallsRepository, type PreflightStanding } from './calls.repository';

const NAP_MS = 100; // fallback only: the orchestrator's call notices are best effort

/**
 * A user-only call is answered after the orchestrator's pre-flight has spoken (DESIGN §4): refused, it is sealed
 * and no approval ever existed; passed, its approval is open. Waits up to CALL_PREFLIGHT_WAIT_MS, woken by the
 * call's notices, re-reading the row each time (the row is the truth); past it, the standing as it is (a device
 * offline is not pre-flighted until it is back).
 */
@Injectable()
export class PreflightWait {
  constructor(
    private readonly calls: CallsRepository,
    private readonly waits: EventWaits,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  async settle(
    callId: string,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<PreflightStanding> {
    const deadline = Date.now() + this.config.CALL_PREFLIGHT_WAIT_MS;
    for (;;) {
      const standing = (await this.calls.preflightStanding(callId))!;
      if (standing.verdict || standing.approvalId) return standing;
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted || this.waits.stopped.aborted) return standing;
      await this.waits.nap({ type: 'call', id: callId }, Math.min(NAP_MS, left), signal);
    }
  }
}

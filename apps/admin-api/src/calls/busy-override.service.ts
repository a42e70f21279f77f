import { Injectable } from '@nestjs/common';
import type { BusyOverride } from '@fleet/api-contract';
import { CallRequests } from '@fleet/platform-client';
import type { Actor } from '../http/actor';
import { conflict, notFound } from '../http/api-error';
import { BusyOverrideRepository } from './busy-override.repository';
import { CallsRepository } from './calls.repository';

/** States in which a call has not been sent: only then can it still be let go during a conversation. */
const UNSENT = new Set(['queued', 'waiting_for_device', 'awaiting_approval']);

/**
 * The busy lock's override (DESIGN §4): an operator lets a reboot or an upgrade go while its device is in a
 * conversation, with a reason. It changes nothing else: the call still needs its approval, and the orchestrator
 * cites the person and the reason in the decision row when it sends.
 */
@Injectable()
export class BusyOverrideService {
  constructor(
    private readonly calls: CallsRepository,
    private readonly overrides: BusyOverrideRepository,
    private readonly requests: CallRequests,
  ) {}

  async override(actor: Actor, id: string, reason: string): Promise<BusyOverride> {
    const call = await this.calls.get(id);
    if (!call) throw notFound('call', id);
    if (call.verdict || !UNSENT.has(call.state))
      throw conflict('call_already_sent', 'already sent or finished: only a call not yet sent can be let go');
    const hold = await this.overrides.override(call, actor.operatorId, reason);
    // The first override stands (it may already be cited as evidence); a second one is answered with it.
    await this.requests.wakeIfReachable(id, call.deviceId);
    return {
      id,
      overriddenBy: hold.override!.by,
      reason: hold.override!.reason,
      overriddenAt: hold.override!.at.toISOString(),
    };
  }
}

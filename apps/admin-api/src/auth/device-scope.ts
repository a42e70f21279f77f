import { Injectable } from '@nestjs/common';
import type { Actor } from '../http/actor';
import { ApiError, notFound } from '../http/api-error';
import { DeviceScopeRepository } from './device-scope.repository';

/** How often an open event stream re-reads which devices a group-scoped key reaches. */
const MEMBERS_REFRESH_MS = 10_000;

/**
 * The bounds of a group-scoped API key (an agent's): it lists, reads and calls only the devices of its groups.
 * A device, call or campaign outside them is answered exactly as one that does not exist (404 `not_found`), so a
 * bounded key learns nothing of the rest of the fleet, not even that it is there. An unscoped key, and every
 * session (people are never scoped), pass untouched.
 */
@Injectable()
export class DeviceScope {
  constructor(private readonly repository: DeviceScopeRepository) {}

  async assertDevice(actor: Actor, deviceId: string): Promise<void> {
    const groups = actor.deviceGroups;
    if (groups && !(await this.repository.deviceInGroups(deviceId, groups)))
      throw notFound('device', deviceId);
  }

  async assertCall(actor: Actor, callId: string): Promise<void> {
    const groups = actor.deviceGroups;
    if (!groups) return;
    const deviceId = await this.repository.deviceOfCall(callId);
    if (!deviceId || !(await this.repository.deviceInGroups(deviceId, groups)))
      throw notFound('call', callId);
  }

  async assertSchedule(actor: Actor, scheduleId: string): Promise<void> {
    const groups = actor.deviceGroups;
    if (!groups) return;
    const deviceId = await this.repository.deviceOfSchedule(scheduleId);
    if (!deviceId || !(await this.repository.deviceInGroups(deviceId, groups)))
      throw notFound('announcement schedule', scheduleId);
  }

  /** A campaign is within bounds when its selector names groups, all of them the key's. */
  async assertCampaign(actor: Actor, campaignId: string): Promise<void> {
    const groups = actor.deviceGroups;
    if (!groups) return;
    const named = await this.repository.campaignGroups(campaignId);
    if (!named || !(await this.within(named, groups))) throw notFound('campaign', campaignId);
  }

  /** A campaign a bounded key creates or previews must name its groups in `selector.groups`, and only them. */
  async assertSelector(actor: Actor, body: unknown): Promise<void> {
    const groups = actor.deviceGroups;
    if (!groups) return;
    const named = (body as { selector?: { groups?: unknown } } | undefined)?.selector?.groups;
    const names = Array.isArray(named) && named.every((n) => typeof n === 'string') ? named : [];
    if (names.length === 0 || !(await this.within(names, groups))) {
      const field = 'body.selector.groups';
      const message = `this key reaches only the devices of its groups (${(await this.repository.groupNames(groups)).join(', ') || 'none left'}): name some of them, and no other`;
      throw new ApiError(403, 'outside_key_scope', `${field}: ${message}`, [{ field, message }]);
    }
  }

  /** A campaign selector for this actor: a bounded key's names its groups when it names none (then checked). */
  async boundSelector<S extends { groups?: string[] | undefined }>(actor: Actor, selector: S): Promise<S> {
    const groups = actor.deviceGroups;
    if (!groups || selector.groups !== undefined) return selector;
    const names = await this.repository.groupNames(groups);
    return names.length > 0 ? { ...selector, groups: names } : selector;
  }

  /**
   * Which devices a live view may announce to the actor: every one for an unscoped actor; for a bounded key,
   * those of its groups as last read (re-read every 10 s while the view is open). `stop` ends the re-reading.
   */
  async deviceFilter(actor: Actor): Promise<{ allows(deviceId: string | undefined): boolean; stop(): void }> {
    const groups = actor.deviceGroups;
    if (!groups) return { allows: () => true, stop: () => undefined };
    let members = new Set(await this.repository.members(groups));
    const refresh = setInterval(() => {
      this.repository.members(groups).then(
        (ids) => (members = new Set(ids)),
        () => undefined, // keep the last set: a missed refresh narrows nothing and widens nothing
      );
    }, MEMBERS_REFRESH_MS);
    refresh.unref();
    return {
      allows: (deviceId) => deviceId !== undefined && members.has(deviceId),
      stop: () => clearInterval(refresh),
    };
  }

  private async within(names: readonly string[], groups: readonly string[]): Promise<boolean> {
    const own = new Set(await this.repository.groupNames(groups));
    return names.every((n) => own.has(n));
  }
}

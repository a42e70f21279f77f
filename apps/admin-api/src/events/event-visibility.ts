import { roleAllows, type Role } from '@fleet/auth';
import type { PlatformEvent } from '@fleet/domain';

/**
 * Who sees which live events: a notice goes to anyone who could read the row it announces. Voice turns
 * carry what a person said near a device, which only operators read (GET /utterances/:id).
 */
const LEAST_ROLE: Record<PlatformEvent['type'], Role> = {
  presence: 'viewer',
  call: 'viewer',
  approval: 'viewer',
  campaign: 'viewer',
  catalog: 'viewer',
  voice_turn: 'operator',
};

export function visibleTo(role: Role, event: PlatformEvent): boolean {
  return roleAllows(role, LEAST_ROLE[event.type]);
}

export const EVENT_TYPES = Object.keys(LEAST_ROLE) as PlatformEvent['type'][];

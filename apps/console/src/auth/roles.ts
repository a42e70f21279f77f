import type { Role } from '@fleet/api-contract';

// The least role each thing the console offers needs, as the API declares it (admin-api README, "Who may do
// what"). The API enforces it; the console only hides or disables what a person cannot do, and says why.
export const LEAST_ROLE = {
  'call.create': 'operator',
  'call.cancel': 'operator',
  'approval.decide': 'operator',
  'campaign.create': 'operator',
  'campaign.steer': 'operator',
  'campaign.approve': 'operator',
  'device.register': 'operator',
  'tool.mark': 'operator',
  'key.create': 'admin',
  'announcement.create': 'operator',
  'schedule.steer': 'operator',
} as const satisfies Record<string, Role>;
export type Action = keyof typeof LEAST_ROLE;

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

export function roleAllows(held: Role, needed: Role): boolean {
  return RANK[held] >= RANK[needed];
}

export function can(role: Role, action: Action): boolean {
  return roleAllows(role, LEAST_ROLE[action]);
}

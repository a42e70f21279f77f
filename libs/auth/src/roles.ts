export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** viewer < operator < admin */
export function roleAllows(held: Role, needed: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(needed);
}

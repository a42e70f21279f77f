import { roleAllows, type Role } from '@fleet/auth';

/** A schedule's creator as a run finds them: the person, and the API key the schedule was made with (if any). */
export interface ScheduleCreator {
  email: string;
  role: Role;
  disabled: boolean;
  /** Null when the schedule was made in a console session (sessions are never bounded to groups). */
  key: { role: Role; revoked: boolean; groupScoped: boolean; deviceInGroups: boolean } | null;
}

/**
 * Why a schedule's creator may no longer make its runs (undefined: still allowed). A run announces as its creator
 * did when the schedule was made, so whatever took that right away since stops it: the person disabled or no
 * longer an operator, the key revoked or lowered, or the device gone from the groups a bounded key reaches.
 */
export function creatorRefusal(c: ScheduleCreator): string | undefined {
  if (c.disabled) return `${c.email} is disabled`;
  if (c.key?.revoked) return `the API key the schedule was made with is revoked`;
  if (!roleAllows(c.role, 'operator')) return `${c.email} is no longer an operator`;
  if (c.key && !roleAllows(c.key.role, 'operator'))
    return `the API key the schedule was made with no longer holds the operator role`;
  if (c.key?.groupScoped && !c.key.deviceInGroups)
    return `the device is no longer in the groups of the API key the schedule was made with`;
  return undefined;
}

/** DESIGN §3: what changed about what a device is (board, chip, Client-Id, serial), as the device page shows it. */
export interface IdentityChangeView {
  at: string;
  field: 'board' | 'chip' | 'client_id' | 'serial';
  /** For `client_id`, fingerprints (the first 8 hex of the hashes): never the Client-Id itself. */
  previous: string | null;
  current: string | null;
  source: 'check_in' | 'proof' | 'operator';
  bootReportId: string | null;
  quarantineId: string | null;
  operatorId: string | null;
}

/** A `device_identity_event` as its json sub-select returns it (the device detail's statement). */
export type IdentityChangeJson = IdentityChangeView;

const shown = (field: string, value: string | null) =>
  field === 'client_id' && value !== null ? value.slice(0, 8) : value;

/** The page's view: Client-Ids as fingerprints, the time as an ISO instant in UTC. */
export function identityChangeView(e: IdentityChangeJson): IdentityChangeView {
  return {
    ...e,
    at: new Date(e.at).toISOString(),
    previous: shown(e.field, e.previous),
    current: shown(e.field, e.current),
  };
}

import type { Client } from 'pg';
import { partitionOf } from '@fleet/domain';

export interface EvidenceFixture {
  /** Devices, each with the calls that will get evidence, in the order they are written. */
  calls: { callId: string; deviceId: string }[];
  devices: number;
}

/**
 * Devices and finished call rows for evidence to belong to (the evidence table's foreign key), inserted as the
 * owner before anything is timed. Calls are spread round-robin over the devices, so consecutive calls in a batch
 * extend different chains, as concurrent calls of a fleet do.
 */
export async function createEvidenceFixture(
  sql: Client,
  o: { devices: number; calls: number; macPrefix: string },
): Promise<EvidenceFixture> {
  const macs = Array.from({ length: o.devices }, (_, i) => mac(o.macPrefix, i));
  await sql.query(
    `INSERT INTO device (id, client_id, updated_at)
     SELECT m, 'GID_test@@@' || replace(m, ':', '_') || '@@@bench', now() FROM unnest($1::text[]) AS m`,
    [macs],
  );
  const devices = Array.from({ length: o.calls }, (_, k) => macs[k % o.devices]!);
  const { rows } = await sql.query<{ id: string; device_id: string }>(
    `INSERT INTO call (id, device_id, tool, arguments, origin, state, deadline_at, partition)
     SELECT gen_random_uuid(), d, 'self.get_device_status', '{}', 'operator', 'finished', now() + interval '1 day', p
       FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS u(d, p, k) ORDER BY k
     RETURNING id, device_id`,
    [devices, devices.map((d) => partitionOf(d))],
  );
  return { calls: rows.map((r) => ({ callId: r.id, deviceId: r.device_id })), devices: o.devices };
}

function mac(prefix: string, i: number): string {
  const hex = i.toString(16).padStart(8, '0');
  return `${prefix}:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}:${hex.slice(6, 8)}`;
}

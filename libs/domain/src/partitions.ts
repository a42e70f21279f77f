import { createHash } from 'node:crypto';

// DESIGN §4: one call in flight per device across all replicas. Devices are split into partitions; each
// partition has exactly one owning orchestrator at a time (a lease with a fencing token), which serialises the
// calls, the JSON-RPC ids and the evidence chain of its devices. Producers address a call to its partition.
export const CALL_PARTITIONS = 16;

/** The partition a device belongs to: stable, and spread evenly over MACs. */
export function partitionOf(deviceId: string): number {
  return createHash('sha256').update(deviceId, 'utf8').digest().readUInt16BE(0) % CALL_PARTITIONS;
}

/** The same computation in SQL (Postgres' built-in sha256), to select a partition's devices without a column. */
export function partitionSql(column: string): string {
  const digest = `sha256(convert_to(${column}, 'UTF8'))`;
  return `((get_byte(${digest}, 0) * 256 + get_byte(${digest}, 1)) % ${CALL_PARTITIONS})`;
}

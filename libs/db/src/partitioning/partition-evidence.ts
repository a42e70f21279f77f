import type { ClientBase } from 'pg';
import { evidenceConversionRepository as conversion } from './evidence-conversion.repository';
import {
  evidencePartitionsRepository as partitions,
  type EvidenceLayout,
} from './evidence-partitions.repository';
import {
  addMonths,
  compareMonths,
  monthOf,
  monthsBetween,
  monthStart,
  partitionName,
  type Month,
} from './months';
import { tableGrantsRepository as grants } from './table-grants.repository';

export interface PartitionEvidenceOptions {
  /** Months after the current one that get their partition ahead of time (a monthly run then always has slack). */
  monthsAhead?: number;
  /** The current time (a test's clock); partitions are made up to its month plus monthsAhead. */
  now?: Date;
  /** How long to wait for the table's lock before giving up (Postgres lock_timeout syntax). */
  lockTimeout?: string;
  /** The application's role, which must never get UPDATE, DELETE or TRUNCATE on evidence. */
  appRole?: string;
  /**
   * Never convert: a plain table is left alone (the run reports it and succeeds). What a scheduled run uses, so
   * the schedule can ship with every deployment and the conversion, which holds the table's lock while it copies,
   * stays a decision an operator takes.
   */
  extendOnly?: boolean;
}

export interface PartitionEvidenceReport {
  /** The table as this run left it. */
  layout: EvidenceLayout;
  /** True when this run turned the plain table into a partitioned one. */
  converted: boolean;
  /** Rows moved into partitions by the conversion (0 on a later run). */
  movedRows: number;
  createdPartitions: string[];
  /** Every partition afterwards, oldest first. */
  partitions: string[];
}

// What restrict_app_role, sign_evidence_seals and create_domain_tables put on the plain table. A conversion that
// met anything else would drop it silently with the plain table, so it stops and names it instead.
const KNOWN_SHAPE = {
  indexes: [
    'evidence_call_id_stage_key',
    'evidence_created_at_idx',
    'evidence_device_id_seq_key',
    'evidence_pkey',
  ],
  triggers: ['evidence_append_only', 'evidence_append_only_truncate'],
  foreignKeys: ['evidence_call_id_fkey'],
};

/**
 * DESIGN §6 "evidence is partitioned by time when it grows": converts the plain evidence table into monthly
 * partitions by created_at in ONE transaction (the table is either as it was or wholly converted; readers and
 * writers wait on its lock meanwhile), or, once converted, only adds the partitions missing from the current month
 * to monthsAhead after it. Run as the owner role.
 */
export async function partitionEvidence(
  client: ClientBase,
  options: PartitionEvidenceOptions = {},
): Promise<PartitionEvidenceReport> {
  const now = options.now ?? new Date();
  const last = addMonths(monthOf(now), options.monthsAhead ?? 3);
  const lockTimeout = options.lockTimeout ?? '10s';
  await client.query('BEGIN');
  try {
    const layout = await partitions.layout(client);
    const report =
      layout === 'partitioned'
        ? await extend(client, monthOf(now), last, lockTimeout)
        : options.extendOnly
          ? { layout, converted: false, movedRows: 0, createdPartitions: [], partitions: [] }
          : await convert(client, monthOf(now), last, lockTimeout, options.appRole ?? 'fleet_app');
    await client.query('COMMIT');
    return report;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

async function convert(
  client: ClientBase,
  current: Month,
  last: Month,
  lockTimeout: string,
  appRole: string,
): Promise<PartitionEvidenceReport> {
  await partitions.lock(client, lockTimeout);
  refuseUnknownShape(await conversion.plainShape(client));
  const span = await partitions.span(client);
  const first = span.oldest ? minMonth(monthOf(span.oldest), current) : current;
  const through = span.newest ? maxMonth(monthOf(span.newest), last) : last;
  const granted = await grants.entries(client, 'evidence');
  await conversion.createPartitioned(client);
  const created = await createMonths(
    client,
    'evidence_partitioned',
    monthsBetween(first, through),
    new Set(),
  );
  const movedRows = await conversion.copyRows(client);
  await conversion.swap(client);
  await conversion.addIndexesAndKeys(client);
  await conversion.createKeyTable(client);
  await conversion.addTriggers(client);
  for (const table of ['evidence', 'evidence_key']) {
    await grants.revokeAll(client, table);
    await grants.grant(client, table, granted);
    await grants.keepAppendOnly(client, table, appRole);
  }
  return {
    layout: 'partitioned',
    converted: true,
    movedRows,
    createdPartitions: created,
    partitions: created,
  };
}

async function extend(
  client: ClientBase,
  current: Month,
  last: Month,
  lockTimeout: string,
): Promise<PartitionEvidenceReport> {
  const wanted = monthsBetween(current, last);
  const present = async () => new Set(await partitions.partitions(client, 'evidence'));
  const before = await present();
  let created: string[] = [];
  // Nothing missing: no lock taken, so a scheduled run that finds the months ready costs the writers nothing.
  if (wanted.some((m) => !before.has(partitionName('evidence', m)))) {
    await partitions.lock(client, lockTimeout);
    // Read again under the lock: another run may have added them meanwhile.
    created = await createMonths(client, 'evidence', wanted, await present());
  }
  return {
    layout: 'partitioned',
    converted: false,
    movedRows: 0,
    createdPartitions: created,
    partitions: [...(await present())].sort(),
  };
}

async function createMonths(
  client: ClientBase,
  parent: string,
  months: readonly Month[],
  existing: ReadonlySet<string>,
): Promise<string[]> {
  const created: string[] = [];
  for (const m of months) {
    const name = partitionName('evidence', m);
    if (existing.has(name)) continue;
    await partitions.createMonth(client, parent, name, monthStart(m), monthStart(addMonths(m, 1)));
    // Reached only through the parent: a direct INSERT into a partition would not claim its keys.
    await grants.revokeAll(client, name);
    created.push(name);
  }
  return created;
}

function refuseUnknownShape(shape: { indexes: string[]; triggers: string[]; foreignKeys: string[] }): void {
  for (const kind of ['indexes', 'triggers', 'foreignKeys'] as const) {
    const unknown = shape[kind].filter((n) => !KNOWN_SHAPE[kind].includes(n));
    if (unknown.length > 0)
      throw new Error(
        `evidence has ${kind} this conversion does not know how to carry over (${unknown.join(', ')}): ` +
          'add them to libs/db/src/partitioning before converting',
      );
  }
}

const minMonth = (a: Month, b: Month) => (compareMonths(a, b) <= 0 ? a : b);
const maxMonth = (a: Month, b: Month) => (compareMonths(a, b) >= 0 ? a : b);

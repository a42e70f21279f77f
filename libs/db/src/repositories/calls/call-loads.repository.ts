import type { ClientBase, Pool } from 'pg';
import type { ToolProfileView } from '@fleet/domain';
import { queryCompiler, sql } from '../../client/kysely';
import { executeNamed } from '../named-statements.repository';
import { selectCallRecord } from './call-columns.repository';
import { toCallRecord, type CallRecord } from './call-record';

/** What deciding a call reads of its device besides the catalog: the operators' markings and group limits. */
export interface DevicePolicy {
  /** Operator markings by tool: true sensitive, false a description's default lifted (DESIGN §4). */
  markings: ReadonlyMap<string, boolean>;
  /** Tools an operator marked read-only (true) or not a read (false) on this device (DESIGN §1). */
  readOnlyMarkings: ReadonlyMap<string, boolean>;
  groups: { name: string; limits: unknown }[];
  /**
   * The tool profiles given for the call's tool, of every model (few: one a model); deciding picks the one of the
   * device's model and catalog (libs/domain profileFor), so a change applies to the next call.
   */
  profiles: ToolProfileView[];
  /** The device's bound Client-Id (hashed): a reboot's boot check-in must come from it (DESIGN §5). */
  boundClientId: string;
}

/** A call to run, with its device's policy read in the same statement (an operator's change applies at once). */
export interface CallToRun {
  call: CallRecord;
  policy: DevicePolicy;
}

/**
 * The query, compiled once and run as a named statement: the runner loads every call it wakes for, and a lone
 * call's load was parsed and planned each time (docs/BENCHMARKS.md §11).
 */
const LOAD_CALLS_TO_RUN = compileLoad();

function compileLoad() {
  return (
    selectCallRecord(queryCompiler.selectFrom('call'))
      .select([
        sql<string>`(SELECT d.client_id FROM device d WHERE d.id = call.device_id)`.as('boundClientId'),
        sql<Record<
          string,
          boolean
        > | null>`(SELECT json_object_agg(m.tool_name, m.sensitive) FROM tool_marking m
           WHERE m.device_id = call.device_id AND m.sensitive IS NOT NULL)`.as('markings'),
        sql<Record<
          string,
          boolean
        > | null>`(SELECT json_object_agg(m.tool_name, m.read_only) FROM tool_marking m
           WHERE m.device_id = call.device_id AND m.read_only IS NOT NULL)`.as('readOnly'),
        sql<ToolProfileView[] | null>`(SELECT json_agg(json_build_object('model', p.model,
           'catalogHash', p.catalog_hash, 'tool', p.tool_name, 'kind', p.kind, 'readback', p.readback,
           'capability', p.capability, 'doneWhen', p.done_when)) FROM tool_profile p WHERE p.tool_name = call.tool)`.as(
          'profiles',
        ),
        sql<
          { name: string; limits: unknown }[] | null
        >`(SELECT json_agg(json_build_object('name', g.name, 'limits', g.limits))
           FROM device_group_member gm JOIN device_group g ON g.id = gm.group_id WHERE gm.device_id = call.device_id)`.as(
          'groups',
        ),
      ])
      // The placeholder is only the compiled statement's parameter; each load passes the real ids in its place.
      .where(sql<boolean>`call.id = ANY(${[] as string[]}::uuid[])`)
      .compile()
  );
}

/**
 * Several calls to run in one statement (the orchestrator batches the loads that arrive together: a fleet-wide
 * wave is a few statements, a lone call one). Calls that do not exist are absent from the map.
 */
export async function loadCallsToRun(
  db: Pool | ClientBase,
  ids: readonly string[],
): Promise<Map<string, CallToRun>> {
  const rows = await executeNamed(db, 'load-calls-to-run', LOAD_CALLS_TO_RUN, [ids]);
  const loaded = new Map<string, CallToRun>();
  for (const { boundClientId, markings, readOnly, groups, profiles, ...call } of rows) {
    loaded.set(call.id, {
      call: toCallRecord(call),
      policy: {
        markings: new Map(Object.entries(markings ?? {})),
        readOnlyMarkings: new Map(Object.entries(readOnly ?? {})),
        groups: groups ?? [],
        profiles: profiles ?? [],
        boundClientId,
      },
    });
  }
  return loaded;
}

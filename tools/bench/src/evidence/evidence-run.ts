import { performance } from 'node:perf_hooks';
import { generateKeyPairSync } from 'node:crypto';
import { Client, Pool } from 'pg';
import { sealSigner } from '@fleet/audit-export';
import { CommitQueue, partitionEvidence, type EvidenceRowInput } from '@fleet/db';
import { partitionOf } from '@fleet/domain';
import type { BenchConfig } from '../config';
import { createBenchDatabase, queryNumber } from '../harness/bench-database';
import { PostgresCpu } from '../harness/postgres-cpu';
import { waitForQuietMachine } from '../harness/quiet-machine';
import { round, say } from '../harness/report';
import { latencySummary, type LatencySummary } from '../platform/latency';
import { costBetween, sampleCost, type PhaseCost } from '../platform/process-cost';
import { readCallEvidence } from './evidence-payloads';
import { createEvidenceFixture } from './evidence-fixture';

export interface EvidenceCase {
  /** Calls (five rows each) per transaction at most (the orchestrator's maxBatchSize is 200). */
  batch: number;
  /** Transactions in flight at once (the orchestrator's maxConcurrentBatches is 4). */
  writers: number;
  /** Each seal link signed with an orchestrator key (Ed25519 over its hash), as the orchestrator does. */
  signed: boolean;
  /**
   * 0: the plain table the migrations create. Otherwise the table converted into this many monthly partitions
   * (db:partition-evidence, with months ahead to make up the number) before the writes.
   */
  partitions: number;
}

export interface EvidenceCaseResult extends EvidenceCase {
  calls: number;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  callsPerSecond: number;
  /** One transaction, BEGIN to COMMIT acknowledged: what a call waits for its rows to be durable. */
  commitMs: LatencySummary;
  cost: PhaseCost;
  /** CPU milliseconds per 1,000 rows: Postgres (the run's backends and shared writers) and the writer (hashing). */
  cpuMsPer1000Rows: { postgres: number; writer: number };
  /** Rows in the table afterwards, and devices whose chain has no gap (seq 1..n). */
  rowsStored: number;
  chainsWithoutGaps: number;
  machineBusyBefore: number;
  /** A plain table's conversion afterwards, with the rows just written: how long its lock would be held. */
  conversion?: { rows: number; ms: number };
}

/**
 * Scenario 4, one case: a fresh migrated database, devices and call rows (not timed), then `calls` calls' five
 * evidence rows each written through the orchestrator's CommitQueue (up to `writers` batch transactions at once) as
 * the application role, every device's calls one after the other as the one-call-in-flight-per-device rule has it.
 */
export async function runEvidenceCase(
  config: BenchConfig,
  c: EvidenceCase,
  o: { calls: number; devices: number; quietWaitMs: number },
): Promise<EvidenceCaseResult> {
  const db = await createBenchDatabase(config, 'evidence');
  const owner = new Client({ connectionString: db.ownerUrl });
  await owner.connect();
  const pool = new Pool({ connectionString: db.appUrl, max: c.writers });
  try {
    const fixture = await createEvidenceFixture(owner, {
      devices: o.devices,
      calls: o.calls,
      macPrefix: '02:5e',
    });
    if (c.partitions > 0) await partitionEvidence(owner, { monthsAhead: c.partitions - 1 });
    const lease = { name: 'bench-evidence', token: '1' };
    const holder = `bench-${process.pid}`;
    await owner.query(
      `INSERT INTO service_lease (name, holder, token, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
      [lease.name, holder, lease.token],
    );
    // Each device's calls in order, one in flight per device, as the orchestrator runs them.
    const byDevice = new Map<string, { callId: string; rows: EvidenceRowInput[] }[]>();
    fixture.calls.forEach(({ callId, deviceId }, k) => {
      const list = byDevice.get(deviceId) ?? [];
      list.push({ callId, rows: readCallEvidence(callId, deviceId, k) });
      byDevice.set(deviceId, list);
    });
    // Connections opened before the clock starts, as a service's pool is warm.
    await Promise.all(Array.from({ length: c.writers }, () => pool.connect())).then((cs) =>
      cs.forEach((client) => client.release()),
    );
    const postgres = new PostgresCpu(owner, db.name);
    const machineBusyBefore = await waitForQuietMachine(0.15, o.quietWaitMs);
    const from = await sampleCost({}, postgres);
    const commits: number[] = [];
    // The product's writer (@fleet/db), with one lease for every partition.
    const queue = new CommitQueue(pool, holder, () => lease, {
      maxConcurrentBatches: c.writers,
      maxBatchSize: c.batch,
      latency: { observe: (seconds) => commits.push(seconds * 1000) },
      ...(c.signed ? { signSeal: sealSigner(generateKeyPairSync('ed25519').privateKey).sign } : {}),
    });
    const seal = { verdict: 'verified' as const, reason: 'read back', sealedAt: new Date() };
    const started = performance.now();
    await Promise.all(
      [...byDevice].map(async ([deviceId, calls]) => {
        for (const call of calls)
          await queue.submit(partitionOf(deviceId), (tx) =>
            tx.appendEvidence(call.callId, deviceId, call.rows, seal),
          );
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cost = costBetween(from, await sampleCost({}, postgres));
    // Five stage rows and the seal link per call.
    const rows = o.calls * 6;
    const result: EvidenceCaseResult = {
      ...c,
      calls: o.calls,
      rows,
      seconds: round(seconds, 3),
      rowsPerSecond: round(rows / seconds, 0),
      callsPerSecond: round(o.calls / seconds, 0),
      commitMs: latencySummary(commits),
      cost,
      cpuMsPer1000Rows: {
        postgres: round(((cost.cpuSeconds['postgres'] ?? 0) * 1e6) / rows, 1),
        writer: round(((cost.cpuSeconds['bench'] ?? 0) * 1e6) / rows, 1),
      },
      rowsStored: await queryNumber(owner, 'SELECT count(*)::int AS n FROM evidence'),
      chainsWithoutGaps: await queryNumber(
        owner,
        `SELECT count(*)::int AS n FROM (SELECT device_id FROM evidence GROUP BY device_id
          HAVING min(seq) = 1 AND max(seq) = count(*)) AS d`,
      ),
      machineBusyBefore: round(machineBusyBefore),
    };
    if (c.partitions === 0) {
      const at = performance.now();
      const converted = await partitionEvidence(owner);
      result.conversion = { rows: converted.movedRows, ms: round(performance.now() - at, 0) };
    }
    say(
      `  up to ${c.batch} calls per transaction, ${c.writers} writers, seals ${c.signed ? 'signed' : 'unsigned'}, ` +
        `${c.partitions > 0 ? `${c.partitions} partitions` : 'plain table'}: ` +
        `${result.callsPerSecond} sealed calls/s, ${result.rowsPerSecond} rows/s, ` +
        `commit p50/p99 ${result.commitMs.p50}/${result.commitMs.p99} ms`,
    );
    return result;
  } finally {
    await pool.end();
    await owner.end();
    await db.drop();
  }
}

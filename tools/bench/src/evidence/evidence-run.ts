import { performance } from 'node:perf_hooks';
import { Client, Pool } from 'pg';
import type { BenchConfig } from '../config';
import { createBenchDatabase, queryNumber } from '../harness/bench-database';
import { PostgresCpu } from '../harness/postgres-cpu';
import { waitForQuietMachine } from '../harness/quiet-machine';
import { round, say } from '../harness/report';
import { latencySummary, type LatencySummary } from '../platform/latency';
import { costBetween, sampleCost, type PhaseCost } from '../platform/process-cost';
import { ChainedEvidenceWriter, type EvidenceUnit } from './chained-writer';
import { readCallEvidence } from './evidence-payloads';
import { createEvidenceFixture } from './evidence-fixture';

export interface EvidenceCase {
  statement: 'per-call' | 'per-batch';
  /** Calls (five rows each) per transaction. */
  batch: number;
  /** Transactions in flight at once (the orchestrator runs up to 4). */
  writers: number;
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
}

/**
 * Scenario 4, one case: a fresh migrated database, devices and call rows (not timed), then `calls` calls' five
 * evidence rows each written by `writers` concurrent group-committing writers as the application role. The
 * devices are split between writers, as the orchestrator's one-call-in-flight-per-device rule splits them.
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
    const lease = { name: 'bench-evidence', holder: `bench-${process.pid}`, token: 1 };
    await owner.query(
      `INSERT INTO service_lease (name, holder, token, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
      [lease.name, lease.holder, lease.token],
    );
    const deviceIndex = new Map<string, number>();
    const queues: EvidenceUnit[][] = Array.from({ length: c.writers }, () => []);
    fixture.calls.forEach(({ callId, deviceId }, k) => {
      if (!deviceIndex.has(deviceId)) deviceIndex.set(deviceId, deviceIndex.size);
      queues[deviceIndex.get(deviceId)! % c.writers]!.push({
        callId,
        deviceId,
        rows: readCallEvidence(callId, deviceId, k),
      });
    });
    // Connections opened before the clock starts, as a service's pool is warm.
    await Promise.all(Array.from({ length: c.writers }, () => pool.connect())).then((cs) =>
      cs.forEach((client) => client.release()),
    );
    const postgres = new PostgresCpu(owner, db.name);
    const machineBusyBefore = await waitForQuietMachine(0.15, o.quietWaitMs);
    const from = await sampleCost({}, postgres);
    const commits: number[] = [];
    const started = performance.now();
    await Promise.all(
      queues.map(async (queue) => {
        const writer = new ChainedEvidenceWriter(lease, c.statement);
        const client = await pool.connect();
        try {
          for (let i = 0; i < queue.length; i += c.batch) {
            const t = performance.now();
            await writer.commit(client, queue.slice(i, i + c.batch));
            commits.push(performance.now() - t);
          }
        } finally {
          client.release();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cost = costBetween(from, await sampleCost({}, postgres));
    const rows = o.calls * 5;
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
    say(
      `  ${c.statement}, ${c.batch} calls per transaction, ${c.writers} writers: ${result.rowsPerSecond} rows/s, ` +
        `commit p50/p99 ${result.commitMs.p50}/${result.commitMs.p99} ms`,
    );
    return result;
  } finally {
    await pool.end();
    await owner.end();
    await db.drop();
  }
}

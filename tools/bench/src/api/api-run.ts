import { join } from 'node:path';
import type { BenchConfig } from '../config';
import { CallClient } from '../calls/call-client';
import { runCallPhase, type CallPhaseResult } from '../calls/call-phase';
import { READ_TOOL } from '../calls/fleet-calls-run';
import { oneAtATime } from '../calls/load-patterns';
import { createOperatorKey } from '../campaign/operators';
import { queryNumber } from '../harness/bench-database';
import { say } from '../harness/report';
import { startBenchPlatform, type BenchPlatform } from '../platform/bench-platform';
import { powerOnAndDiscover } from '../platform/fleet-startup';
import { closedLoop, getOk } from './rest-load';
import { runRestPhase, type RestPhaseResult } from './rest-phase';

export interface ApiBenchOptions {
  devices: number;
  /** Requests of each read phase. */
  reads: number;
  /** Calls created in the 32-in-flight phase (the 1-in-flight phase creates a tenth of them). */
  creations: number;
  /** POST → sealed verdict, one at a time. */
  sequential: number;
  inFlight: number;
  outDir: string;
  distDir: string;
  quietWaitMs: number;
  /** `--cpu-prof` of the admin API over the whole run (written to outDir when it stops). */
  profile?: 'cpu';
}

export interface ApiBenchResult {
  devices: number;
  reads: RestPhaseResult[];
  creations: RestPhaseResult[];
  sealed: CallPhaseResult | undefined;
  logs: Record<string, Record<string, number>>;
  logSamples: string[];
}

/**
 * The admin API as an operator meets it, on a fresh platform (every service a process of its own, from dist/):
 * authenticated reads, call creation, and POST → sealed verdict one at a time, with CPU per process.
 */
export async function runApiBench(config: BenchConfig, o: ApiBenchOptions): Promise<ApiBenchResult> {
  const p = await startBenchPlatform(config, {
    label: 'api',
    devices: o.devices,
    bootsPerSecond: Math.min(250, o.devices),
    macPrefix: '02:5a',
    outDir: o.outDir,
    distDir: o.distDir,
    quietWaitMs: o.quietWaitMs,
    adminApi: true,
    ...(o.profile ? { adminApiProfile: o.profile } : {}),
  });
  try {
    say(`fleet of ${o.devices}: power-on and discovery`);
    await powerOnAndDiscover(p);
    const api = p.api!;
    const key = await createOperatorKey(p.sql, 'operator', 'bench operator');
    const devices = await discoveredDevices(p);
    const url = (path: string) => `${api.baseUrl}${path}`;
    const device = (k: number) => devices[k % devices.length]!;
    say('warm-up (not counted)');
    await closedLoop(o.inFlight, 500, (k) => getOk(url(`/api/v1/devices/${device(k)}`), key));

    const reads: RestPhaseResult[] = [];
    for (const [name, path] of [
      ['GET /healthz', () => '/healthz'],
      ['GET /auth/me', () => '/api/v1/auth/me'],
      ['GET /devices/:id', (k: number) => `/api/v1/devices/${device(k)}`],
    ] as const) {
      const withKey = name === 'GET /healthz' ? undefined : key;
      reads.push(
        await runRestPhase(p, { name, inFlight: o.inFlight }, () =>
          closedLoop(o.inFlight, o.reads, (k) => getOk(url(path(k)), withKey)),
        ),
      );
    }

    const creations: RestPhaseResult[] = [];
    const caller = await CallClient.connectRest({ baseUrl: api.baseUrl, key }, p.redis.url);
    try {
      const create = (k: number) => caller.ask(device(k), READ_TOOL, {}).then(() => undefined);
      for (const [inFlight, total] of [
        [1, Math.max(1, Math.round(o.creations / 10))],
        [o.inFlight, o.creations],
      ] as const) {
        creations.push(
          await runRestPhase(p, { name: 'POST /devices/:id/calls', inFlight }, () =>
            closedLoop(inFlight, total, create),
          ),
        );
        await drained(p);
      }
      const sealed =
        o.sequential > 0
          ? await runCallPhase(
              p,
              { name: 'POST → sealed, one at a time', tool: READ_TOOL, devices: devices.length },
              async () => ({
                outcomes: await oneAtATime(devices, o.sequential, (d) => caller.call(d, READ_TOOL, {})),
              }),
            )
          : undefined;
      return {
        devices: o.devices,
        reads,
        creations,
        sealed,
        logs: {
          broker: p.broker.logs.counts,
          orchestrator: p.orchestrator.logs.counts,
          'admin-api': api.logs.counts,
        },
        logSamples: [...p.broker.logs.samples, ...p.orchestrator.logs.samples, ...api.logs.samples],
      };
    } finally {
      await caller.close();
    }
  } finally {
    await p.stop();
    say(`logs${o.profile ? ' and profile' : ''} in ${join(o.outDir)}`);
  }
}

async function discoveredDevices(p: BenchPlatform): Promise<string[]> {
  const { rows } = await p.sql.query<{ id: string }>(
    'SELECT id FROM device WHERE catalog_version_id IS NOT NULL ORDER BY id',
  );
  return rows.map((r) => r.id);
}

/** Waits until every call asked for is sealed, so that the next phase does not pay for this one's calls. */
async function drained(p: BenchPlatform, timeoutMs = 5 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await queryNumber(p.sql, 'SELECT count(*)::int AS n FROM call WHERE sealed_at IS NULL');
    if (open === 0) return;
    if (Date.now() > deadline) throw new Error(`${open} calls still unsealed after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

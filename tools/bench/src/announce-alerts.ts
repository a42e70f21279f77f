// Alerts to a whole fleet (docs/BENCHMARKS.md §14): every device of a simulated fleet is sent one announcement
// (`how: alert`) through REST, as an operator's script would, at most `--posts-in-flight` requests open at once;
// measured until every announcement call is sealed with its five evidence rows. The broker, the orchestrator, the
// admin API and the fleet run as separate processes from dist/ (NODE_ENV=production).
//   npm run bench:announce-alerts -- [--devices 5000] [--boot-rate 1000] [--posts-in-flight 64] [--quiet-wait-sec 120]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOperatorKey } from './campaign/operators';
import { loadBenchConfig } from './config';
import { printResult, round, say, table } from './harness/report';
import { startBenchPlatform } from './platform/bench-platform';
import { powerOnAndDiscover } from './platform/fleet-startup';

interface AnnounceResult {
  devices: number;
  startupSeconds: number;
  /** From the first POST until every POST was answered 202. */
  acceptedSeconds: number;
  /** From the first POST until every announcement call was sealed. */
  sealedSeconds: number;
  sealedPerSecond: number;
  refused: Record<string, number>;
  verdicts: Record<string, number>;
  evidenceRows: number;
  /** Server side: sealed_at - created_at of the announcement calls, ms. */
  latencyMs: { p50: number; p99: number; max: number };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '5000' },
      'boot-rate': { type: 'string', default: '1000' },
      'posts-in-flight': { type: 'string', default: '64' },
      'quiet-wait-sec': { type: 'string', default: '120' },
    },
  });
  const config = loadBenchConfig();
  const devices = Number(values.devices);
  const outDir = join('/tmp', `bench-announce-${process.pid}`);
  const p = await startBenchPlatform(config, {
    label: 'announce',
    devices,
    bootsPerSecond: Number(values['boot-rate']),
    macPrefix: '02:5a',
    outDir,
    distDir: join(config.root, 'dist'),
    quietWaitMs: Number(values['quiet-wait-sec']) * 1000,
    adminApi: true,
    // One script sends them all: the per-sender announcement rate is an operator's, not a benchmark's.
    adminApiEnv: { ANNOUNCE_RATE_PER_SENDER: '100000000', ANNOUNCE_SCHEDULER: 'false' },
  });
  try {
    say(`fleet of ${devices}: power-on, check-in, connect, discovery`);
    const startup = await powerOnAndDiscover(p);
    const { rows } = await p.sql.query<{ id: string }>(
      'SELECT id FROM device WHERE catalog_version_id IS NOT NULL ORDER BY id',
    );
    const ids = rows.map((r) => r.id);
    const key = await createOperatorKey(p.sql, 'operator', 'bench announcer');
    await p.quiet();
    say(`alerts to ${ids.length} devices through POST /devices/:id/announcements`);
    const started = Date.now();
    const refused: Record<string, number> = {};
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const response = await fetch(`${p.api!.baseUrl}/api/v1/devices/${id}/announcements`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'Fire drill at noon: please leave by the stairs', how: 'alert' }),
        });
        await response.arrayBuffer();
        if (response.status !== 202) refused[response.status] = (refused[response.status] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: Number(values['posts-in-flight']) }, worker));
    const acceptedSeconds = (Date.now() - started) / 1000;
    const expected = ids.length - Object.values(refused).reduce((a, b) => a + b, 0);
    let sealed = 0;
    while (sealed < expected) {
      const { rows: counted } = await p.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM call WHERE tool = 'platform.announce' AND verdict IS NOT NULL`,
      );
      sealed = counted[0]!.n;
      if (Date.now() - started > 600_000)
        throw new Error(`only ${sealed} of ${expected} sealed in 10 minutes`);
      if (sealed < expected) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const sealedSeconds = (Date.now() - started) / 1000;
    const { rows: verdictRows } = await p.sql.query<{ verdict: string; n: number }>(
      `SELECT verdict, count(*)::int AS n FROM call WHERE tool = 'platform.announce' GROUP BY verdict`,
    );
    const { rows: evidence } = await p.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM evidence e JOIN call c ON c.id = e.call_id
        WHERE c.tool = 'platform.announce' AND e.stage <> 'seal'`,
    );
    const { rows: latency } = await p.sql.query<{ p50: number; p99: number; max: number }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99,
              max(ms) AS max
         FROM (SELECT extract(epoch FROM sealed_at - created_at) * 1000 AS ms FROM call
                WHERE tool = 'platform.announce') t`,
    );
    const result: AnnounceResult = {
      devices: ids.length,
      startupSeconds: startup.seconds,
      acceptedSeconds: round(acceptedSeconds, 2),
      sealedSeconds: round(sealedSeconds, 2),
      sealedPerSecond: round(expected / sealedSeconds, 0),
      refused,
      verdicts: Object.fromEntries(verdictRows.map((r) => [r.verdict, r.n])),
      evidenceRows: evidence[0]!.n,
      latencyMs: {
        p50: round(Number(latency[0]!.p50), 1),
        p99: round(Number(latency[0]!.p99), 1),
        max: round(Number(latency[0]!.max), 1),
      },
    };
    printResult('announce-alerts', result, [
      'Alerts to a whole fleet through REST, until every announcement call is sealed with its five rows.',
      '',
      ...table(
        ['devices', 'all accepted', 'all sealed', 'sealed/s', 'p50 ms', 'p99 ms', 'rows', 'verdicts'],
        [
          [
            result.devices,
            `${result.acceptedSeconds} s`,
            `${result.sealedSeconds} s`,
            result.sealedPerSecond,
            result.latencyMs.p50,
            result.latencyMs.p99,
            result.evidenceRows,
            JSON.stringify(result.verdicts),
          ],
        ],
      ),
    ]);
  } finally {
    await p.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

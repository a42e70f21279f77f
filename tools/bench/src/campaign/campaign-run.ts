import { performance } from 'node:perf_hooks';
import { FIRMWARE_TIMINGS } from '@fleet/device-sim';
import type { BenchConfig } from '../config';
import { queryNumber } from '../harness/bench-database';
import { round, say } from '../harness/report';
import { startBenchPlatform } from '../platform/bench-platform';
import { powerOnAndDiscover, type StartupCost } from '../platform/fleet-startup';
import { costBetween, perUnitMs, sampleCost, type PhaseCost } from '../platform/process-cost';
import { AdminClient } from './admin-client';
import { steadyPerMinute, watchCampaign, type CampaignWatch } from './campaign-watch';
import { benchFirmwareImage } from './firmware-image';
import { benchPhases, dispatchPace, phaseLogOf, type DispatchPace } from './phased-rollout';
import { createOperatorKey } from './operators';

export interface CampaignOptions {
  devices: number;
  bootsPerSecond: number;
  imageBytes: number;
  batchSize: number;
  maxInFlight: number;
  outDir: string;
  distDir: string;
  quietWaitMs: number;
  /** A phased rollout: the canary takes the first `canary` devices by id, then each percentage with its soak. */
  phases?: { canary: number; canarySoakS: number; percents: { percent: number; soakS: number }[] };
}

export interface CampaignResult {
  devices: number;
  imageBytes: number;
  /** The one firmware delay scaled to the image (see flashWriteMs below); every other delay is the firmware's. */
  flashWriteMs: number;
  rollout: { batchSize: number; maxInFlight: number };
  startup: StartupCost;
  campaign: Omit<CampaignWatch, 'timeline'>;
  /** Verified devices over the whole campaign, approval to the last device settled. */
  devicesPerMinute: number;
  /** The pace between 10 % and 90 % of the fleet verified. */
  steadyDevicesPerMinute: number | undefined;
  /** What the database and the devices themselves say at the end. */
  runningNewVersion: number;
  simUpgrades: number;
  /** Of the upgrade calls: verdicts as Postgres has them, and those with all five evidence rows. */
  verdicts: Record<string, number>;
  callsWithFiveRows: number;
  cost: PhaseCost;
  cpuMsPerDevice: Record<string, number>;
  machineBusyBefore: number;
  timeline: CampaignWatch['timeline'];
  /** Upgrade calls made: the most in any 60 s, and over first to last. */
  dispatches: DispatchPace;
  /** A phased rollout's gates, as the campaign's phase log has them. */
  phaseLog: unknown[];
}

const VERSION = '9.0.0';
/** FIRMWARE_TIMINGS.flashWriteMs is for a real image of about 3 MB; a small image flashes in proportion. */
const REAL_IMAGE_BYTES = 3 * 2 ** 20;

/**
 * Scenario 3: a firmware campaign over the whole simulated fleet, run as an operator runs one: upload the image
 * (POST /firmware), create the campaign, start it, have another operator approve it (an upgrade is user-only),
 * and follow its progress through the API until every device is settled. A device counts as verified when the
 * orchestrator saw it come back after its reboot reporting the new version (DESIGN §5).
 */
export async function runFirmwareCampaign(config: BenchConfig, o: CampaignOptions): Promise<CampaignResult> {
  const flashWriteMs = Math.max(
    1,
    Math.round((FIRMWARE_TIMINGS.flashWriteMs * o.imageBytes) / REAL_IMAGE_BYTES),
  );
  const p = await startBenchPlatform(config, {
    label: 'campaign',
    devices: o.devices,
    bootsPerSecond: o.bootsPerSecond,
    macPrefix: '02:5d',
    outDir: o.outDir,
    distDir: o.distDir,
    quietWaitMs: o.quietWaitMs,
    adminApi: true,
    timings: { flashWriteMs },
  });
  try {
    say(`fleet of ${o.devices}: power-on, check-in, connect, discovery`);
    const startup = await powerOnAndDiscover(p);
    say(`  all discovered in ${startup.seconds} s`);
    // One after the other: they share one pg Client.
    const admin = await createOperatorKey(p.sql, 'admin', 'bench admin');
    const creator = await createOperatorKey(p.sql, 'operator', 'bench creator');
    const approver = await createOperatorKey(p.sql, 'operator', 'bench approver');
    const baseUrl = p.api!.baseUrl;
    const asAdmin = new AdminClient(baseUrl, admin);
    const asCreator = new AdminClient(baseUrl, creator);
    const asApprover = new AdminClient(baseUrl, approver);
    const image = benchFirmwareImage(VERSION, o.imageBytes);
    const firmware = await asAdmin.expect(201, 'POST', '/firmware?boards=bread-compact-wifi', image);
    const phases = o.phases && (await benchPhases(p.sql, o.phases));
    const campaign = await asCreator.expect(201, 'POST', '/campaigns', {
      ...(phases ? { phases } : {}),
      name: `bench: upgrade ${o.devices} devices to ${VERSION}`,
      selector: { board: 'bread-compact-wifi' },
      action: { kind: 'firmware', firmwareId: firmware['id'], via: 'mcp' },
      rollout: { batchSize: o.batchSize, maxInFlight: o.maxInFlight },
      abortRule: { failureRate: 0.1, minDevices: 100 },
      deviceTimeoutS: 600,
    });
    const id = String(campaign['id']);
    const started = await asCreator.expect(200, 'POST', `/campaigns/${id}/start`, {});

    const machineBusyBefore = await p.quiet();
    const from = await sampleCost(p.pids, p.postgres);
    const approvedAt = performance.now();
    // An upgrade is a user-only tool: the campaign waits for a second operator (four eyes) before it runs.
    if (started['state'] === 'awaiting_approval')
      await asApprover.expect(200, 'POST', `/campaigns/${id}/approve`, {});
    say(
      `campaign ${id} running: ${o.devices} devices, batches of ${o.batchSize}, ${o.maxInFlight} in flight`,
    );
    const watch = await watchCampaign(asCreator, id, approvedAt, { timeoutMs: 60 * 60_000, everyMs: 500 });
    const to = await sampleCost(p.pids, p.postgres);
    const cost = costBetween(from, to);
    const { rows } = await p.sql.query<{ verdict: string | null; n: number; five: number }>(
      `SELECT c.verdict, count(*)::int AS n,
              count(*) FILTER (WHERE (SELECT count(DISTINCT e.stage) FROM evidence e WHERE e.call_id = c.id AND e.stage <> 'seal') = 5)::int AS five
         FROM call c WHERE c.campaign_id = $1 GROUP BY c.verdict`,
      [id],
    );
    const { timeline, ...rest } = watch;
    return {
      devices: o.devices,
      imageBytes: o.imageBytes,
      flashWriteMs,
      rollout: { batchSize: o.batchSize, maxInFlight: o.maxInFlight },
      startup,
      campaign: rest,
      devicesPerMinute: round((watch.progress.verified / Math.max(watch.seconds, 0.001)) * 60, 0),
      steadyDevicesPerMinute: optionalRound(steadyPerMinute(timeline, watch.progress.total)),
      runningNewVersion: await queryNumber(
        p.sql,
        `SELECT count(*)::int AS n FROM device WHERE firmware_version = '${VERSION}'`,
      ),
      simUpgrades: p.fleet.summary?.upgrades ?? 0,
      verdicts: Object.fromEntries(rows.map((r) => [r.verdict ?? 'unsealed', r.n])),
      callsWithFiveRows: rows.reduce((sum, r) => sum + r.five, 0),
      cost,
      cpuMsPerDevice: perUnitMs(cost, watch.progress.verified),
      machineBusyBefore: round(machineBusyBefore),
      timeline: timeline.map((t) => ({ ...t, at: round(t.at, 1) })),
      dispatches: await dispatchPace(p.sql, id),
      phaseLog: await phaseLogOf(p.sql, id),
    };
  } finally {
    await p.stop();
    say(`logs in ${o.outDir}`);
  }
}

const optionalRound = (v: number | undefined) => (v === undefined ? undefined : round(v, 0));

import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { registerListenAiDevice, waitFor, withMarkedSection } from '@fleet/testing';
import { fuzzSection, newTally, recordOutcome, type TargetTally } from '../src/fuzz-tally';
import { Bystanders } from './bystanders';
import {
  activate,
  linkAccepted,
  linkRefused,
  mqttTcp,
  mqttWebSocket,
  otaCheckIn,
  udp,
  type FuzzTarget,
} from './drivers/edge-targets';
import { listenAiReplies, rediscover, xiaozhiCatalogs, xiaozhiReplies } from './drivers/reply-targets';
import { documentedGetRoutes, restQueries } from './drivers/rest-target';
import { startFuzzPlatform, type FuzzPlatform } from './fuzz-platform';

// `npm test` runs a bounded number of cases per target; `npm run fuzz` many more, and writes the table.
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12);
const LONG = process.env['FUZZ_LONG'] === '1';
const SEED = Number(process.env['FUZZ_SEED'] ?? Date.now() % 2 ** 31);
const REPORT = join(__dirname, '../../../docs/RELIABILITY.md');

const BYSTANDER_XIAOZHI = '02:f1:00:00:00:01';
const BYSTANDER_LISTENAI = '02:f1:00:00:00:02';
const FUZZED_XIAOZHI = '02:f1:00:00:00:03';
const FUZZED_LISTENAI = '02:f1:00:00:00:04';
const RAW_LINK_DEVICE = '02:f1:00:00:00:05';
const CATALOG_DEVICE = '02:f1:00:00:00:06';

describe(`every input a device or a stranger controls (seed ${SEED}, ${RUNS} runs a target)`, () => {
  let platform: FuzzPlatform;
  let bystanders: Bystanders;
  const tallies: TargetTally[] = [];
  const started = Date.now();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

  beforeAll(async () => {
    platform = await startFuzzPlatform();
    await platform.xiaozhi(BYSTANDER_XIAOZHI);
    await platform.listenAi(BYSTANDER_LISTENAI);
    bystanders = new Bystanders(platform, [
      { id: BYSTANDER_XIAOZHI, tool: 'self.get_device_status', verdicts: ['verified'] },
      // A ListenAI read is verified only where its model's profile says it reads; otherwise acknowledged.
      { id: BYSTANDER_LISTENAI, tool: 'get_volume', verdicts: ['verified', 'acknowledged'] },
    ]);
    bystanders.start();
  }, 90_000);

  afterAll(async () => {
    bystanders?.stop();
    await bystanders?.settle();
    if (LONG && tallies.length > 0) {
      const section = fuzzSection(tallies, {
        date: new Date(started).toISOString().slice(0, 16),
        load,
        runsPerTarget: RUNS,
        seconds: (Date.now() - started) / 1000,
      });
      writeFileSync(REPORT, withMarkedSection(readFileSync(REPORT, 'utf8'), 'fuzz', section));
    }
    await platform?.close();
  }, 60_000);

  /** Runs one target's property; every case must leave all services up, each refusal counted. */
  async function fuzz<T>(target: FuzzTarget<T>): Promise<void> {
    const tally = newTally(target.name, target.input, SEED);
    const before = await platform.counters(target.service, target.counters);
    bystanders.round();
    const result = await fc.check(
      fc.asyncProperty(target.arbitrary, async (input) => {
        const answered = await target.send(platform, input);
        recordOutcome(tally, answered.outcome, answered.refused, answered.times);
        await platform.assertUp();
      }),
      { numRuns: Math.max(3, Math.round(RUNS * (target.weight ?? 1))), seed: SEED, endOnFailure: !LONG },
    );
    if (result.failed) tally.failure = fc.defaultReportMessage(result) ?? 'failed';
    // A refusal is counted as it happens, but the scrape may come first: wait for the count to catch up.
    const counted = async () => (await platform.counters(target.service, target.counters)) - before;
    await waitFor(async () => (await counted()) >= tally.refused, {
      what: `${target.name}: every refusal counted`,
      timeoutMs: 5_000,
    }).catch(() => undefined);
    tally.counted = await counted();
    tallies.push(tally);
    const { asked, wrong } = await bystanders.settle();

    expect(tally.failure ?? 'no counterexample').toBe('no counterexample');
    // Every refusal the service answered is on its /metrics; the answers by kind say which were not.
    const counting =
      tally.counted >= tally.refused
        ? 'every refusal counted'
        : `${tally.refused} refused, ${tally.counted} counted; answers ${JSON.stringify(tally.outcomes)}`;
    expect(counting).toBe('every refusal counted');
    expect({ asked: asked > 0, wrong }).toEqual({ asked: true, wrong: [] });
  }

  it('raw MQTT over TCP never stops the broker, each refusal is counted', () => fuzz(mqttTcp), 120_000);

  it('raw MQTT over WebSocket, frames included, never stops the broker', () => fuzz(mqttWebSocket), 120_000);

  it('frames on a refused ListenAI link never stop the broker', () => fuzz(linkRefused), 120_000);

  it('frames on an accepted ListenAI link never stop the broker', async () => {
    const { token } = await registerListenAiDevice(platform.sql, RAW_LINK_DEVICE);
    await fuzz(linkAccepted(token));
  }, 120_000);

  it(
    'OTA check-ins with any headers and body are answered 200 or 4xx, never 5xx',
    () => fuzz(otaCheckIn),
    120_000,
  );

  it('/activate with any headers and body is answered, never 5xx', () => fuzz(activate), 120_000);

  it('UDP datagrams of any shape are dropped and counted', () => fuzz(udp), 120_000);

  it('xiaozhi replies of any shape seal their call with a sent verdict; another id never pairs', async () => {
    const device = await platform.xiaozhi(FUZZED_XIAOZHI);
    await fuzz(xiaozhiReplies(device));
    device.clearFaults();
  }, 180_000);

  it('ListenAI replies of any shape seal their call with a sent verdict; another id never pairs', async () => {
    const { device } = await platform.listenAi(FUZZED_LISTENAI);
    await fuzz(listenAiReplies(device));
  }, 180_000);

  it('tools/list pages of any shape end their discovery, stored or counted as failed; the device is then discovered again', async () => {
    const device = await platform.xiaozhi(CATALOG_DEVICE);
    await fuzz(xiaozhiCatalogs(device));
    device.clearFaults();
    // The last fuzzed page may have been stored (a catalog without this tool): the call waits for the genuine one.
    await rediscover(platform, device);
    expect(await platform.callAndSeal(CATALOG_DEVICE, 'self.get_device_status')).toBe('verified');
  }, 180_000);

  it('REST query parameters, cursors and path parameters never answer 5xx; a 400 names its field', async () => {
    const routes = await documentedGetRoutes(platform.urls.api);
    expect(routes.length).toBeGreaterThan(10);
    await fuzz(restQueries(routes, BYSTANDER_XIAOZHI));
  }, 120_000);
});

import { declaredMetrics, metricsUsed } from '@fleet/deploy-check';
import { getJson, spokenPcm, waitFor, withSilence } from '@fleet/testing';
import { api } from './api-client';
import { deliveries } from './case-facts';
import { startChaosPlatform, type ChaosPlatform } from './chaos-platform';
import { runCase } from './run-case';
import { strangerFramesCase } from './stranger-frames';
import type { CaseResult } from './tally';

// The short fault suite that `npm test` runs (the long one is `npm run chaos`, chaos-long.spec.ts): one
// platform shared by the file, a small fleet, each case with calls, voice turns and a campaign in flight.
// The bar: nothing lost, nothing sent twice, every turn answered, the campaign settled.
const DEVICES = 4;
const CASE_MS = 150_000;

function expectBarMet(result: CaseResult): void {
  console.log(`chaos: ${JSON.stringify(result)}`);
  expect(result.callsAsked).toBeGreaterThan(0);
  expect({
    lost: result.callsLost,
    sentTwice: result.callsSentTwice,
    unanswered: result.turnsAsked - result.turnsAnswered,
    unsettled: result.campaignDevices - result.campaignSettled,
  }).toEqual({ lost: 0, sentTwice: 0, unanswered: 0, unsettled: 0 });
}

describe('faults the platform survives with work in flight', () => {
  let p: ChaosPlatform;

  beforeAll(async () => {
    p = await startChaosPlatform({ devices: DEVICES });
  }, 120_000);

  afterAll(async () => {
    await p?.close();
  });

  it('exports every metric the alert rules and the dashboard of deploy/ read', async () => {
    const declared = new Set<string>();
    for (const name of ['broker', 'orchestrator', 'voice-worker', 'admin-api'] as const) {
      const text = await (await fetch(`http://127.0.0.1:${p.service(name).ports['http']}/metrics`)).text();
      for (const metric of declaredMetrics(text)) declared.add(metric);
    }
    const used = metricsUsed();
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((m) => !declared.has(m))).toEqual([]);
  });

  it(
    'loses nothing when Redis restarts empty, and answers a voice turn spoken after it',
    async () => {
      const result = await runCase(
        p,
        { name: 'Redis restarted', inject: () => p.redis.restart(), heal: () => Promise.resolve() },
        () => Promise.resolve(),
      );
      expectBarMet(result);

      // Spoken after the restart: the session must reach a worker through the recreated consumer group.
      const device = p.fleet.devices[1]!;
      const since = new Date();
      await device.openVoiceSession({ mode: 'auto' });
      device.sendAudio(withSilence(spokenPcm('what is the volume'), 1200));
      const turn = await waitFor(
        async () =>
          (
            await p.sql.query<{ state: string; reply: string | null }>(
              `SELECT state, reply FROM voice_turn WHERE device_id = $1 AND source = 'audio' AND created_at >= $2
                  AND state IN ('finished', 'failed')`,
              [device.mac, since],
            )
          ).rows[0],
        { what: 'the spoken turn answered', timeoutMs: 45_000, intervalMs: 200 },
      );
      expect(turn).toEqual({ state: 'finished', reply: expect.stringMatching(/^The volume is \d+\.$/) });
      await device.closeVoiceSession();
    },
    CASE_MS,
  );

  it(
    'answers call requests at once while the API cannot reach Redis, and runs them once it can',
    async () => {
      let probe: { status: number; ms: number; id?: string } | undefined;
      const result = await runCase(
        p,
        {
          name: "admin API's link to Redis cut",
          inject: () => p.links.cut('admin-api', 'redis'),
          heal: () => p.links.restore('admin-api', 'redis'),
        },
        async () => {
          await waitFor(async () => (await getJson(`${p.apiUrl()}/healthz`)).status === 503, {
            what: 'the API reporting Redis down',
          });
          const answer = await api(
            p.apiUrl(),
            p.operatorKey,
            'POST',
            `/devices/${p.fleet.devices[0]!.mac}/calls`,
            {
              tool: 'self.get_device_status',
            },
          );
          probe = { status: answer.status, ms: Math.round(answer.ms), id: answer.body['id'] as string };
          console.log(
            `chaos: POST /devices/:id/calls with Redis unreachable answered ${answer.status} in ${probe.ms} ms`,
          );
        },
      );
      expectBarMet(result);
      expect(probe).toMatchObject({ status: 202, id: expect.any(String) });
      // Recorded while Redis was unreachable; run by the orchestrator's sweep once it could be. The sweep takes a
      // queued call's wake-up for lost 5 s after the call was made, which may be later than the case's recovery.
      const verdict = await waitFor(
        async () => {
          const { rows } = await p.sql.query<{ verdict: string | null }>(
            'SELECT verdict FROM call WHERE id = $1',
            [probe!.id],
          );
          return rows[0]?.verdict ?? undefined;
        },
        { timeoutMs: 20_000, intervalMs: 100, what: 'the call recorded while Redis was unreachable sealed' },
      );
      expect(verdict).toBe('verified');
    },
    CASE_MS,
  );

  it(
    "keeps serving when a stranger's oversized or bad-UTF-8 frame reaches a refused ListenAI link",
    async () => {
      const stranger = strangerFramesCase();
      const result = await runCase(p, stranger.fault, () => Promise.resolve());
      // The frames went out on an upgraded link (else the case proved nothing), and the broker lived through them.
      expect(stranger.links.filter((l) => l.opened)).not.toEqual([]);
      expect({ brokerDied: stranger.brokerDied() }).toEqual({ brokerDied: false });
      expectBarMet(result);
    },
    CASE_MS,
  );

  it(
    'answers a voice turn whose worker is SIGKILLed mid-turn with an apology, and sends its call once',
    async () => {
      const device = p.fleet.devices[2]!;
      device.setFaults({ replyDelayMs: 3_000 }); // the turn's call is still out when the worker dies
      const asked = await api(p.apiUrl(), p.operatorKey, 'POST', `/devices/${device.mac}/utterances`, {
        text: 'what is the volume',
      });
      expect(asked.status).toBe(202);
      const turnId = asked.body['id'] as string;
      // Mid-turn: its call is out and the device has not answered yet (the turn's row says `calling` only once
      // a round's calls are back, too briefly to catch).
      await waitFor(
        async () =>
          (
            await p.sql.query(
              `SELECT 1 FROM call WHERE voice_turn_id = $1 AND sent_at IS NOT NULL AND verdict IS NULL`,
              [turnId],
            )
          ).rowCount === 1,
        { what: "the turn's call out to its device", timeoutMs: 30_000 },
      );
      await p.kill('voice-worker');
      device.setFaults({ replyDelayMs: 0 });
      await p.start('voice-worker'); // the same WORKER_ID: it answers what it held when it died
      const turn = await waitFor(
        async () =>
          (
            await p.sql.query<{ state: string; reply: string | null; error: string | null }>(
              `SELECT state, reply, error FROM voice_turn WHERE id = $1 AND state IN ('finished', 'failed')`,
              [turnId],
            )
          ).rows[0],
        { what: 'the interrupted turn answered', timeoutMs: 30_000 },
      );
      expect(turn).toEqual({
        state: 'failed',
        reply: 'Sorry, something went wrong.',
        error: expect.stringMatching(/restarted in the middle of the turn/),
      });
      const calls = await waitFor(
        async () => {
          const { rows } = await p.sql.query<{ verdict: string | null; jsonrpc_id: number | null }>(
            'SELECT verdict, jsonrpc_id FROM call WHERE voice_turn_id = $1',
            [turnId],
          );
          return rows.length > 0 && rows.every((r) => r.verdict) && rows;
        },
        { what: "the turn's calls sealed", timeoutMs: 30_000 },
      );
      expect(calls.map((c) => deliveries(device, c.jsonrpc_id))).toEqual(calls.map(() => 1));
    },
    CASE_MS,
  );
});

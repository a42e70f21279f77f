import type { SimDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import { api } from './api-client';
import type { ChaosPlatform } from './chaos-platform';
import type { CallFacts, TurnFacts } from './tally';
import type { Asked } from './workload';

const SETTLED_TARGETS = ['verified', 'failed', 'skipped', 'cancelled'];

/** Times a device received the tools/call request with this JSON-RPC id (ids are never reused per device). */
export function deliveries(device: SimDevice | undefined, jsonrpcId: number | null): number {
  if (!device || jsonrpcId === null) return 0;
  return device.observed.toolCallsReceived(jsonrpcId);
}

/** Every call made since `since` (prerequisites included), with how often its request reached the device. */
export async function callFacts(p: ChaosPlatform, since: Date): Promise<CallFacts[]> {
  const { rows } = await p.sql.query<{
    id: string;
    verdict: string | null;
    device_id: string;
    jsonrpc_id: number | null;
  }>('SELECT id, verdict, device_id, jsonrpc_id FROM call WHERE created_at >= $1', [since]);
  return rows.map((r) => ({
    id: r.id,
    verdict: r.verdict,
    deliveries: deliveries(p.fleet.byMac(r.device_id), r.jsonrpc_id),
  }));
}

export async function turnFacts(p: ChaosPlatform, ids: string[]): Promise<TurnFacts[]> {
  const { rows } = await p.sql.query<TurnFacts>(
    'SELECT id, state, reply FROM voice_turn WHERE id = ANY($1)',
    [ids],
  );
  return rows;
}

/** A campaign of verified set_volume over the whole fleet, two devices at a time, started now. */
export async function startCampaign(p: ChaosPlatform, volume: number): Promise<string> {
  const created = await api(p.apiUrl(), p.operatorKey, 'POST', '/campaigns', {
    name: `chaos volume ${volume}`,
    selector: { online: true },
    action: { kind: 'tool', tool: 'self.audio_speaker.set_volume', arguments: { volume } },
    rollout: { batchSize: 2, maxInFlight: 2 },
    deviceTimeoutS: 120,
  });
  if (created.status !== 201 && created.status !== 200)
    throw new Error(`campaign: ${JSON.stringify(created.body)}`);
  const id = created.body['id'] as string;
  const started = await api(p.apiUrl(), p.operatorKey, 'POST', `/campaigns/${id}/start`, {});
  if (started.status >= 300) throw new Error(`campaign start: ${JSON.stringify(started.body)}`);
  return id;
}

export async function campaignFacts(
  p: ChaosPlatform,
  id: string,
): Promise<{ devices: number; settled: number }> {
  const { rows } = await p.sql.query<{ devices: number; settled: number }>(
    `SELECT count(*)::int AS devices, count(*) FILTER (WHERE state = ANY($2))::int AS settled
       FROM campaign_target WHERE campaign_id = $1`,
    [id, SETTLED_TARGETS],
  );
  return rows[0]!;
}

/**
 * Seconds from now until a call asked now is verified end to end: the platform serves again. The request
 * is retried (same Idempotency-Key) while the API refuses it.
 */
export async function secondsToRecover(p: ChaosPlatform, timeoutMs = 90_000): Promise<number> {
  const started = Date.now();
  const device = p.fleet.devices[0]!.mac;
  const key = `probe-${started}`;
  const id = await waitFor(
    async () => {
      const a = await api(
        p.apiUrl(),
        p.operatorKey,
        'POST',
        `/devices/${device}/calls`,
        { tool: 'self.get_device_status' },
        { 'idempotency-key': key },
      );
      return a.status === 202 && (a.body['id'] as string);
    },
    { what: 'the API accepting a probe call', timeoutMs, intervalMs: 100 },
  );
  await waitFor(
    async () =>
      (
        await p.sql
          .query(`SELECT 1 FROM call WHERE id = $1 AND verdict = 'verified'`, [id])
          .catch(() => ({ rowCount: 0 }))
      ).rowCount === 1,
    { what: 'the probe call verified', timeoutMs, intervalMs: 100 },
  );
  return (Date.now() - started) / 1000;
}

/** Until every accepted call and turn of the load is finished, and the campaign settled. */
export async function waitSettled(
  p: ChaosPlatform,
  calls: Asked[],
  turns: Asked[],
  campaignId: string,
  timeoutMs = 120_000,
): Promise<void> {
  const callIds = calls.flatMap((c) => (c.id ? [c.id] : []));
  const turnIds = turns.flatMap((t) => (t.id ? [t.id] : []));
  await waitFor(
    async () => {
      const open = await p.sql.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM call WHERE id = ANY($1) AND verdict IS NULL)
              + (SELECT count(*) FROM voice_turn WHERE id = ANY($2) AND state NOT IN ('finished', 'failed'))::int AS n`,
        [callIds, turnIds],
      );
      const campaign = await campaignFacts(p, campaignId);
      return Number(open.rows[0]!.n) === 0 && campaign.settled === campaign.devices;
    },
    { what: 'the calls, turns and campaign of the case settled', timeoutMs, intervalMs: 250 },
  ).catch(() => undefined); // what is still open then is counted as lost
}

import type { ListenAiDevice, SimDevice } from '@fleet/device-sim';
import { mcpReply, REPLY_ID, toolsListPage, type FuzzReply } from '../../src/arbitraries';
import { waitFor } from '@fleet/testing';
import type { FuzzPlatform } from '../fuzz-platform';
import type { CaseOutcome, FuzzTarget } from './edge-targets';

/** Verdicts a sent call may end with (DESIGN §1); the not-sent ones would mean the call never reached the device. */
const SENT_VERDICTS = ['verified', 'acknowledged', 'effect_mismatch', 'device_error', 'no_response'];

const ORCHESTRATOR_INPUT = [
  { name: 'orchestrator_malformed_input_total' },
  { name: 'orchestrator_unpaired_replies_total' },
] as const;

/**
 * The text a device sends instead of its genuine reply: the case's, with the request's real id in it (both
 * dialects' replies carry the id at the top: xiaozhi §3, seed 002's flat envelope).
 */
function replacing(reply: FuzzReply) {
  return (genuine: string, method: string): string => {
    if (method !== 'tools/call') return genuine;
    const { id } = JSON.parse(genuine) as { id: unknown };
    return reply.text.replaceAll(REPLY_ID, JSON.stringify(id));
  };
}

async function sealedCase(
  platform: FuzzPlatform,
  deviceId: string,
  tool: string,
  reply: FuzzReply,
): Promise<CaseOutcome> {
  const verdict = await platform.callAndSeal(deviceId, tool, {}, 300);
  if (!SENT_VERDICTS.includes(verdict)) throw new Error(`a sent call ended ${verdict}`);
  // Replies are bound to their request (DESIGN §3): one with another id never settles the call.
  if (reply.pairs === false && verdict !== 'no_response') {
    throw new Error(`a reply with another id decided the call: ${verdict} from ${reply.text.slice(0, 200)}`);
  }
  const { rows } = await platform.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM evidence e JOIN call c ON c.id = e.call_id
      WHERE c.device_id = $1 AND c.id = (SELECT id FROM call WHERE device_id = $1 ORDER BY created_at DESC LIMIT 1)`,
    [deviceId],
  );
  // Five stages and the seal link (DESIGN §1, §6).
  if (rows[0]!.n < 5) throw new Error(`the call has ${rows[0]!.n} evidence rows`);
  return { outcome: verdict, refused: false };
}

export function xiaozhiReplies(device: SimDevice): FuzzTarget<FuzzReply> {
  return {
    name: 'MCP replies, xiaozhi',
    input: 'tools/call answers of any shape: odd results, errors with unescaped text, other ids, broken JSON',
    service: 'orchestrator',
    arbitrary: mcpReply('xiaozhi'),
    counters: ORCHESTRATOR_INPUT,
    weight: 0.5,
    async send(platform, reply) {
      device.setFaults({ rewriteReply: replacing(reply) });
      return sealedCase(platform, device.mac, 'self.get_device_status', reply);
    },
  };
}

export function listenAiReplies(device: ListenAiDevice): FuzzTarget<FuzzReply> {
  return {
    name: 'MCP replies, ListenAI',
    input: 'the same, in the ListenAI envelope',
    service: 'orchestrator',
    arbitrary: mcpReply('listenai'),
    counters: ORCHESTRATOR_INPUT,
    weight: 0.5,
    async send(platform, reply) {
      device.setFaults({ rewriteReply: replacing(reply) });
      return sealedCase(platform, device.mac, 'get_volume', reply);
    },
  };
}

const DISCOVERIES = [{ name: 'orchestrator_discoveries_total' }];
const FAILED_DISCOVERIES = [{ name: 'orchestrator_discoveries_total', outcomes: ['failed'] }];

/**
 * tools/list pages of any shape: the device reconnects, the orchestrator discovers it again, and each discovery
 * must end (a catalog stored or the discovery counted as failed) without stopping anything.
 */
export function xiaozhiCatalogs(device: SimDevice): FuzzTarget<string> {
  return {
    name: 'MCP discovery, xiaozhi',
    input: 'tools/list pages of any shape: hostile names, descriptions, schemas, cursors; damaged pages',
    service: 'orchestrator',
    arbitrary: toolsListPage,
    counters: FAILED_DISCOVERIES,
    weight: 0.5,
    async send(platform, page) {
      device.setFaults({
        rewriteReply: (genuine, method) => {
          if (method !== 'tools/list') return genuine;
          const { id } = JSON.parse(genuine) as { id: unknown };
          return page.replaceAll(REPLY_ID, JSON.stringify(id));
        },
      });
      const failed = () => platform.counters('orchestrator', FAILED_DISCOVERIES);
      const failedBefore = await failed();
      await rediscover(platform, device);
      const outcome = (await failed()) > failedBefore ? 'failed' : 'stored';
      return { outcome, refused: outcome === 'failed' };
    },
  };
}

/** Reconnects the device and waits for the discovery that follows to end, stored or failed. */
export async function rediscover(platform: FuzzPlatform, device: SimDevice): Promise<void> {
  const endedBefore = await platform.counters('orchestrator', DISCOVERIES);
  device.flap();
  await waitFor(async () => (await platform.counters('orchestrator', DISCOVERIES)) > endedBefore, {
    what: 'the discovery after a reconnect to end',
    timeoutMs: 20_000,
  });
}

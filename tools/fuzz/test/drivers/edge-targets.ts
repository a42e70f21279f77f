import { createSocket } from 'node:dgram';
import fc from 'fast-check';
import {
  activateBody,
  checkInBody,
  checkInHeaders,
  mqttBytes,
  udpDatagram,
  wsFrames,
} from '../../src/arbitraries';
import { encodeFrame, upgradeRequest } from '../../src/ws-frame';
import type { CounterSelector, FuzzPlatform, FuzzService } from '../fuzz-platform';
import { closeCodeAfterUpgrade, exchangeRaw, httpStatus } from './raw-socket';

/** How one case was answered: a label for the report, and whether the service refused it explicitly. */
export interface CaseOutcome {
  outcome: string;
  refused: boolean;
  /** Inputs the case sent that each must be counted (several datagrams), 1 by default. */
  times?: number;
}

/** A counter whose growth counts refusals: all its samples, or only those with one of these outcomes. */
export type RefusalCounter = CounterSelector;

export interface FuzzTarget<T> {
  name: string;
  input: string;
  service: FuzzService;
  arbitrary: fc.Arbitrary<T>;
  /** Where refusals are counted. */
  counters: readonly RefusalCounter[];
  /** Share of the run count this target gets (slow cases get less). */
  weight?: number;
  send(platform: FuzzPlatform, input: T): Promise<CaseOutcome>;
}

const WAIT_MS = 400;

/** The broker's counters for what it refused or found malformed at its edge. */
const BROKER_EDGE: readonly RefusalCounter[] = [
  { name: 'broker_auth_failures_total' },
  { name: 'broker_malformed_input_total' },
  { name: 'broker_access_refusals_total' },
  { name: 'broker_link_refusals_total' },
  { name: 'broker_socket_errors_total' },
  { name: 'broker_edge_refusals_total' },
];

/** MQTT's CONNACK return code (3.1.1 §3.2.2.3) or reason code (5.0), when the answer starts with one. */
function connackCode(received: Buffer): number | undefined {
  if (received.length >= 4 && received[0] === 0x20) return received[3];
  return undefined;
}

function mqttOutcome(received: Buffer, closedByServer: boolean): CaseOutcome {
  const code = connackCode(received);
  if (code !== undefined) return { outcome: `connack ${code}`, refused: true };
  if (closedByServer) return { outcome: 'closed', refused: true };
  return { outcome: received.length ? 'answered, held' : 'held', refused: false };
}

export const mqttTcp: FuzzTarget<Buffer> = {
  name: 'MQTT over TCP',
  input: 'raw bytes, packets in any order, damaged packets, lying lengths',
  service: 'broker',
  arbitrary: mqttBytes,
  counters: BROKER_EDGE,
  async send(platform, bytes) {
    const { received, closedByServer } = await exchangeRaw(platform.urls.mqttPort, [bytes], WAIT_MS);
    return mqttOutcome(received, closedByServer);
  },
};

export const mqttWebSocket: FuzzTarget<{ bytes: Buffer; frames: ReturnType<typeof encodeFrame>[] }> = {
  name: 'MQTT over WebSocket',
  input: 'MQTT bytes in a binary frame, then raw frames (unmasked, RSV bits, oversized, bad opcodes)',
  service: 'broker',
  arbitrary: fc
    .tuple(mqttBytes, wsFrames)
    .map(([bytes, frames]) => ({ bytes, frames: frames.map((f) => encodeFrame(f)) })),
  counters: BROKER_EDGE,
  async send(platform, { bytes, frames }) {
    const binary = encodeFrame({ fin: true, rsv: 0, opcode: 0x2, masked: true, payload: bytes });
    const { received, closedByServer } = await exchangeRaw(
      platform.urls.wsPort,
      [Buffer.from(upgradeRequest('/mqtt', { 'Sec-WebSocket-Protocol': 'mqtt' })), binary, ...frames],
      WAIT_MS,
    );
    const status = httpStatus(received);
    if (status !== 101) return { outcome: `http ${status ?? 'none'}`, refused: status !== undefined };
    const code = closeCodeAfterUpgrade(received);
    if (code !== undefined) return { outcome: `close ${code}`, refused: true };
    return { outcome: closedByServer ? 'ended' : 'held', refused: closedByServer };
  },
};

function linkTarget(
  name: string,
  input: string,
  authorization: (platform: FuzzPlatform) => string | undefined,
): FuzzTarget<Buffer[]> {
  return {
    name,
    input,
    service: 'broker',
    arbitrary: wsFrames.map((frames) => frames.map((f) => encodeFrame(f))),
    counters: BROKER_EDGE,
    async send(platform, frames) {
      const auth = authorization(platform);
      const upgrade = upgradeRequest(`/v1/interaction?param=${encodeURIComponent('{"mcp":true}')}`, {
        ...(auth ? { Authorization: auth } : {}),
      });
      const { received, closedByServer } = await exchangeRaw(
        platform.urls.linkPort,
        [Buffer.from(upgrade), ...frames],
        WAIT_MS,
      );
      const status = httpStatus(received);
      if (status !== 101) return { outcome: `http ${status ?? 'none'}`, refused: status !== undefined };
      const code = closeCodeAfterUpgrade(received);
      if (code !== undefined) return { outcome: `close ${code}`, refused: true };
      return { outcome: closedByServer ? 'ended' : 'held', refused: closedByServer };
    },
  };
}

export const linkRefused = linkTarget(
  'ListenAI link, refused',
  'frames in the refused link’s window (no token, a bogus one): oversized, unmasked, bad UTF-8, RSV, close storms',
  () => (Math.random() < 0.5 ? undefined : 'Bearer lt_bogus_0123456789abcdefghijklmnopqrstuvwxyz'),
);

/** Frames on an accepted link: the platform's own token for a device no simulator holds. */
export function linkAccepted(token: string): FuzzTarget<Buffer[]> {
  return linkTarget(
    'ListenAI link, accepted',
    'the same frames on a link opened with a valid token',
    () => `Bearer ${token}`,
  );
}

async function post(url: string, headers: Record<string, string>, body: Buffer): Promise<CaseOutcome> {
  const answer = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
  await answer.arrayBuffer();
  return { outcome: `http ${answer.status}`, refused: answer.status >= 400 };
}

export const otaCheckIn: FuzzTarget<{ headers: Record<string, string>; body: Buffer }> = {
  name: 'OTA check-in',
  input: 'any headers (Device-Id, Client-Id, Activation-Version, Serial-Number), boot reports with any field',
  service: 'broker',
  arbitrary: fc.record({ headers: checkInHeaders, body: checkInBody }),
  counters: [
    { name: 'broker_ota_check_ins_total', outcomes: ['bad_request'] },
    { name: 'broker_socket_errors_total' },
    { name: 'broker_edge_refusals_total' },
  ],
  send: (platform, { headers, body }) => post(`${platform.urls.brokerHttp}/xiaozhi/ota/`, headers, body),
};

export const activate: FuzzTarget<{ headers: Record<string, string>; body: Buffer }> = {
  name: 'OTA /activate',
  input: 'any headers and bodies',
  service: 'broker',
  arbitrary: fc.record({ headers: checkInHeaders, body: activateBody }),
  counters: [
    { name: 'broker_activations_total', outcomes: ['bad_request'] },
    { name: 'broker_socket_errors_total' },
    { name: 'broker_edge_refusals_total' },
  ],
  send: (platform, { headers, body }) =>
    post(`${platform.urls.brokerHttp}/xiaozhi/ota/activate`, headers, body),
};

export const udp: FuzzTarget<Buffer[]> = {
  name: 'UDP audio',
  input: 'datagrams: noise, header-shaped, empty, at the MTU',
  service: 'broker',
  arbitrary: fc.array(udpDatagram, { minLength: 1, maxLength: 8 }),
  counters: [{ name: 'broker_udp_packets_total', notOutcomes: ['accepted', 'sent'] }],
  async send(platform, datagrams) {
    const socket = createSocket('udp4');
    for (const datagram of datagrams) {
      await new Promise<void>((sent) =>
        socket.send(datagram, platform.urls.udpPort, '127.0.0.1', () => sent()),
      );
    }
    socket.close();
    // No answer comes to a datagram the broker drops; each one must be counted.
    return { outcome: 'dropped', refused: true, times: datagrams.length };
  },
};

import type { MqttClient } from 'mqtt';
import { decodeMcpReply, deviceP2pTopic, type Dialect, type McpRequest } from '@fleet/protocol';
import { inSpan, linkTo, type Logger } from '@fleet/telemetry';
import type { OrchestratorMetrics } from '../orchestrator-metrics';
import { durableIdOf, encodeRequestFor, wireIdFor } from './dialect-wire';
import type { Exchange, StrayReply } from './exchange';
import type { MalformedInputs } from './malformed-inputs';
import type { RpcIds } from './rpc-ids';
import type { UnownedReplies } from './unowned-replies';

type Resolved = Exchange['outcome'];

interface Pending {
  resolve: (outcome: Resolved) => void;
  timer: NodeJS.Timeout;
  /** The connection the request went out on: a reply pairs only when it comes on this one (DESIGN §3). */
  connectionId: string | undefined;
  strays: StrayReply[];
  /** After the timeout the request keeps listening (an upgrade's late "true" arrives long after). */
  late?: (outcome: Resolved) => void;
}

/** Strays kept per request: enough to show an attack, too few for a flood to grow memory. */
const MAX_STRAYS = 8;

export interface UplinkBytes {
  mac: string;
  connectionId: string;
  receivedAt: Date;
  bytes: Buffer;
  /** The broker's trace of this uplink (linked from the request's span). */
  traceparent?: string;
}

/**
 * Requests to devices and their replies, paired by JSON-RPC id and connection (DESIGN §2: publish on
 * devices/p2p/<mac_>, replies arrive wrapped on fleet/devices/<mac_>/up/mcp with the connection they came on).
 * A reply nobody waits for, or one from another connection than its request went out on, is counted and kept
 * raw; it never decides anything (DESIGN §3: a second connection's reply could be anyone's).
 */
export class McpLink {
  private readonly pending = new Map<string, Pending>();
  /** The broker's trace of each reply's bytes, for as long as the bytes live. */
  private readonly uplinkTraces = new WeakMap<Buffer, string>();

  constructor(
    private readonly mqtt: MqttClient,
    private readonly ids: RpcIds,
    private readonly malformed: MalformedInputs,
    private readonly metrics: OrchestratorMetrics,
    private readonly logger: Logger,
    /** A stray showed a connection this replica does not hold for the device (its presence may be stale). */
    private readonly onStray: (mac: string, connectionId: string) => void = () => undefined,
    /** Replies heard for other replicas' devices, asked after a takeover (DESIGN §7). */
    private readonly unowned?: UnownedReplies,
  ) {}

  /** Allocates the next durable id for the device (the caller records it before sending). */
  allocateId(mac: string): Promise<number> {
    return this.ids.next(mac);
  }

  /**
   * Publishes the request and waits for the same-id reply or the timeout. The id must come from allocateId and
   * be recorded (the "sending" row) before this is called.
   */
  async exchange(
    device: { mac: string; dialect: Dialect; connectionId: string | undefined },
    request: McpRequest & { id: number },
    timeoutMs: number,
    /** Called once the request is handed to the broker (the call's `sent`). */
    published?: () => void,
  ): Promise<Exchange> {
    const encoded = encodeRequestFor(device, request);
    if (!encoded.ok) throw new Error(`cannot encode request: ${encoded.error.message}`);
    // DESIGN §2: the device leg of the trace, keyed by the JSON-RPC id.
    return inSpan(
      `mcp ${request.method}`,
      {
        attributes: {
          'rpc.system': 'jsonrpc',
          'rpc.jsonrpc.request_id': request.id,
          'rpc.method': request.method,
          'device.id': device.mac,
          'device.connection_id': device.connectionId ?? '',
        },
      },
      async (span) => {
        const wireId = wireIdFor(device.dialect, request.id);
        const exchange = await this.send(device, request, encoded.value, timeoutMs, published);
        if (typeof wireId === 'string') exchange.wireId = wireId;
        span.setAttribute('mcp.outcome', exchange.outcome.kind);
        if (exchange.strays?.length) span.setAttribute('mcp.stray_replies', exchange.strays.length);
        const uplinkTrace =
          exchange.outcome.kind === 'timeout' ? undefined : this.uplinkTraces.get(exchange.outcome.raw);
        for (const link of linkTo(uplinkTrace)) span.addLink(link);
        return exchange;
      },
    );
  }

  private async send(
    device: { mac: string; connectionId: string | undefined },
    request: McpRequest & { id: number },
    text: string,
    timeoutMs: number,
    published: (() => void) | undefined,
  ): Promise<Exchange> {
    const key = keyOf(device.mac, request.id);
    const sentAt = new Date();
    const strays: StrayReply[] = [];
    const outcome = new Promise<Resolved>((resolve) => {
      const timer = setTimeout(() => {
        const entry = this.pending.get(key);
        if (entry && !entry.late) this.pending.delete(key);
        resolve({ kind: 'timeout', timeoutMs });
      }, timeoutMs);
      this.pending.set(key, { resolve, timer, connectionId: device.connectionId, strays });
    });
    this.mqtt.publish(deviceP2pTopic(device.mac), text, { qos: 0 }, (err) => {
      if (err) this.logger.warn({ err, mac: device.mac }, 'publish to device failed');
      else published?.();
    });
    this.metrics.mcpRequests.inc({ method: request.method });
    const resolved = await outcome;
    return {
      request,
      jsonrpcId: request.id,
      connectionId: device.connectionId,
      sentAt,
      outcome: resolved,
      ...(strays.length ? { strays } : {}),
    };
  }

  /**
   * Keeps listening for a request that timed out, until `stop` is called (verification of reboots and upgrades:
   * a late reply says something). Only for requests this replica sent, and only on the connection it went out on.
   */
  listenLate(
    mac: string,
    id: number,
    connectionId: string | undefined,
    onLate: (outcome: Resolved) => void,
  ): () => void {
    const key = keyOf(mac, id);
    const entry = this.pending.get(key) ?? {
      resolve: () => undefined,
      timer: setTimeout(() => undefined, 0),
      connectionId,
      strays: [],
    };
    entry.late = onLate;
    this.pending.set(key, entry);
    return () => {
      if (this.pending.get(key) === entry) this.pending.delete(key);
    };
  }

  /**
   * A request another replica sent before it stopped (the call's row says `sending` or `sent`, with its id and
   * connection): its reply if this replica heard it while the partition had no owner, else whatever comes on that
   * connection until the reply timeout runs out. Nothing is sent again: the device may have acted already.
   */
  async awaitAfterTakeover(
    device: { mac: string; dialect: Dialect },
    request: McpRequest & { id: number },
    connectionId: string,
    sentAt: Date,
    remainingMs: number,
  ): Promise<Exchange> {
    const base = { request, jsonrpcId: request.id, connectionId, sentAt };
    const kept = this.unowned?.take(device.mac, device.dialect, request.id, connectionId);
    if (kept) {
      this.metrics.takenOverReplies.inc();
      return { ...base, outcome: outcomeOf(decodeMcpReply(device.dialect, kept.bytes), kept) };
    }
    const key = keyOf(device.mac, request.id);
    const strays: StrayReply[] = [];
    const outcome = await new Promise<Resolved>((resolve) => {
      const timeoutMs = Math.max(0, remainingMs);
      const timer = setTimeout(() => {
        if (this.pending.get(key)?.resolve === resolve) this.pending.delete(key);
        resolve({ kind: 'timeout', timeoutMs });
      }, timeoutMs);
      this.pending.set(key, { resolve, timer, connectionId, strays });
    });
    return { ...base, outcome, ...(strays.length ? { strays } : {}) };
  }

  /** An MCP uplink of an owned device. Never throws: bad input is counted and kept. */
  receive(uplink: UplinkBytes, dialect: Dialect): void {
    if (uplink.traceparent) this.uplinkTraces.set(uplink.bytes, uplink.traceparent);
    const decoded = decodeMcpReply(dialect, uplink.bytes);
    const wireId = decoded.ok ? decoded.value.id : decoded.error.id;
    const id = durableIdOf(dialect, wireId);
    const entry = id !== undefined ? this.pending.get(keyOf(uplink.mac, id)) : undefined;
    if (!decoded.ok) this.metrics.malformedInput.inc({ kind: decoded.error.kind });
    if (entry && (entry.connectionId === undefined || entry.connectionId !== uplink.connectionId)) {
      this.stray(entry, uplink, id as number);
      return;
    }
    if (!entry) {
      this.metrics.unpairedReplies.inc({ reason: wireId !== undefined ? 'unknown_id' : 'no_id' });
      this.malformed.record({
        deviceId: uplink.mac,
        connectionId: uplink.connectionId,
        kind: decoded.ok ? 'unpaired_reply' : decoded.error.kind,
        error: decoded.ok ? `no request waits for id ${JSON.stringify(wireId)}` : decoded.error.message,
        raw: uplink.bytes,
      });
      return;
    }
    const outcome = outcomeOf(decoded, uplink);
    if (entry.late) {
      entry.late(outcome);
      return;
    }
    clearTimeout(entry.timer);
    this.pending.delete(keyOf(uplink.mac, id!));
    entry.resolve(outcome);
  }

  /** A same-id reply from another connection: kept with the exchange and as malformed input, never paired. */
  private stray(entry: Pending, uplink: UplinkBytes, id: number): void {
    this.metrics.unpairedReplies.inc({ reason: 'other_connection' });
    if (entry.strays.length < MAX_STRAYS) {
      entry.strays.push({
        connectionId: uplink.connectionId,
        receivedAt: uplink.receivedAt,
        raw: uplink.bytes,
      });
    }
    this.malformed.record({
      deviceId: uplink.mac,
      connectionId: uplink.connectionId,
      kind: 'stray_reply',
      error: `reply to id ${id} on connection ${uplink.connectionId}; the request went out on ${entry.connectionId ?? 'no connection'}`,
      raw: uplink.bytes,
    });
    this.logger.warn(
      { mac: uplink.mac, id, connectionId: uplink.connectionId, sentOn: entry.connectionId },
      'a reply from another connection than its request went out on: kept as a stray, not paired',
    );
    this.onStray(uplink.mac, uplink.connectionId);
  }
}

function outcomeOf(decoded: ReturnType<typeof decodeMcpReply>, uplink: UplinkBytes): Resolved {
  return decoded.ok
    ? { kind: 'reply', reply: decoded.value, raw: uplink.bytes, receivedAt: uplink.receivedAt }
    : {
        kind: 'unreadable',
        message: decoded.error.message,
        raw: uplink.bytes,
        receivedAt: uplink.receivedAt,
      };
}

function keyOf(mac: string, id: number): string {
  return `${mac}#${id}`;
}

import type { MqttClient } from 'mqtt';
import { decodeMcpReply, deviceP2pTopic, type Dialect, type McpRequest } from '@fleet/protocol';
import { inSpan, linkTo, type Logger } from '@fleet/telemetry';
import type { OrchestratorMetrics } from '../orchestrator-metrics';
import { durableIdOf, encodeRequestFor, wireIdFor } from './dialect-wire';
import type { Exchange } from './exchange';
import type { MalformedInputs } from './malformed-inputs';
import type { RpcIds } from './rpc-ids';

type Resolved = Exchange['outcome'];

interface Pending {
  resolve: (outcome: Resolved) => void;
  timer: NodeJS.Timeout;
  /** After the timeout the request keeps listening (an upgrade's late "true" arrives long after). */
  late?: (outcome: Resolved) => void;
}

export interface UplinkBytes {
  mac: string;
  connectionId: string;
  receivedAt: Date;
  bytes: Buffer;
  /** The broker's trace of this uplink (linked from the request's span). */
  traceparent?: string;
}

/**
 * Requests to devices and their replies, paired by JSON-RPC id (DESIGN §2: publish on devices/p2p/<mac_>, replies
 * arrive wrapped on fleet/devices/<mac_>/up/mcp). A reply nobody waits for is counted and kept raw.
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
  ): Promise<Exchange> {
    const encoded = encodeRequestFor(device, request);
    if (!encoded.ok) throw new Error(`cannot encode request: ${encoded.error.message}`);
    // DESIGN §2 / issue 8: the device leg of the trace, keyed by the JSON-RPC id.
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
        const exchange = await this.send(device, request, encoded.value, timeoutMs);
        if (typeof wireId === 'string') exchange.wireId = wireId;
        span.setAttribute('mcp.outcome', exchange.outcome.kind);
        if (exchange.outcome.kind !== 'timeout')
          span.setAttribute('mcp.reply_connection_id', exchange.outcome.replyConnectionId);
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
  ): Promise<Exchange> {
    const key = keyOf(device.mac, request.id);
    const sentAt = new Date();
    const outcome = new Promise<Resolved>((resolve) => {
      const timer = setTimeout(() => {
        const entry = this.pending.get(key);
        if (entry && !entry.late) this.pending.delete(key);
        resolve({ kind: 'timeout', timeoutMs });
      }, timeoutMs);
      this.pending.set(key, { resolve, timer });
    });
    this.mqtt.publish(deviceP2pTopic(device.mac), text, { qos: 0 }, (err) => {
      if (err) this.logger.warn({ err, mac: device.mac }, 'publish to device failed');
    });
    this.metrics.mcpRequests.inc({ method: request.method });
    return {
      request,
      jsonrpcId: request.id,
      connectionId: device.connectionId,
      sentAt,
      outcome: await outcome,
    };
  }

  /**
   * Keeps listening for a request that timed out, until `stop` is called (verification of reboots and upgrades:
   * a late reply says something). Only for requests this replica sent.
   */
  listenLate(mac: string, id: number, onLate: (outcome: Resolved) => void): () => void {
    const key = keyOf(mac, id);
    const entry = this.pending.get(key) ?? {
      resolve: () => undefined,
      timer: setTimeout(() => undefined, 0),
    };
    entry.late = onLate;
    this.pending.set(key, entry);
    return () => {
      if (this.pending.get(key) === entry) this.pending.delete(key);
    };
  }

  /** An MCP uplink of an owned device. Never throws: bad input is counted and kept. */
  receive(uplink: UplinkBytes, dialect: Dialect): void {
    if (uplink.traceparent) this.uplinkTraces.set(uplink.bytes, uplink.traceparent);
    const decoded = decodeMcpReply(dialect, uplink.bytes);
    const wireId = decoded.ok ? decoded.value.id : decoded.error.id;
    const id = durableIdOf(dialect, wireId);
    const entry = id !== undefined ? this.pending.get(keyOf(uplink.mac, id)) : undefined;
    if (!decoded.ok) this.metrics.malformedInput.inc({ kind: decoded.error.kind });
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
    const outcome: Resolved = decoded.ok
      ? {
          kind: 'reply',
          reply: decoded.value,
          raw: uplink.bytes,
          receivedAt: uplink.receivedAt,
          replyConnectionId: uplink.connectionId,
        }
      : {
          kind: 'unreadable',
          message: decoded.error.message,
          raw: uplink.bytes,
          receivedAt: uplink.receivedAt,
          replyConnectionId: uplink.connectionId,
        };
    if (entry.late) {
      entry.late(outcome);
      return;
    }
    clearTimeout(entry.timer);
    this.pending.delete(keyOf(uplink.mac, id!));
    entry.resolve(outcome);
  }
}

function keyOf(mac: string, id: number): string {
  return `${mac}#${id}`;
}

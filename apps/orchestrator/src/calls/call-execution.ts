import type { ResponsePayload } from '@fleet/domain';
import { deviceP2pTopic, encodeServerMessage, mcpRequests, serverMessage } from '@fleet/protocol';
import { inSpan } from '@fleet/telemetry';
import type { DeviceRuntime } from '../devices/device-runtime';
import type { Exchange } from '../mcp/exchange';
import type { McpLink } from '../mcp/mcp-link';
import {
  readbackRecord,
  responseRow,
  systemMessageResponse,
  toolOutcomeOf,
} from '../verification/evidence-rows';
import type { EffectObservation, ReplyObservation } from '../verification/observation';
import { readBack } from '../verification/readback';
import { readbackTarget, type Recipe } from '../verification/recipes';
import { observeReboot, waitForEffect, type RebootObservation } from '../verification/reboot-watch';
import type { CallRecord } from './call-record';
import type { CallRepository } from './call-repository';

/** What executing needs: the link to the device, the broker for a `system` message, the boot reports. */
export interface ExecutionPorts {
  link: Pick<McpLink, 'exchange' | 'listenLate' | 'allocateId' | 'awaitAfterTakeover'>;
  /** The services' MQTT client, seen only as a downlink publisher (the adapter is in mcp/). */
  mqtt: { publish(topic: string, message: string, opts: { qos: 0 }): unknown };
  calls: Pick<CallRepository, 'bootsSince'>;
}

/** The same-id reply (or its absence) as the response row records it and the verdict table reads it. */
export interface ReplySeen {
  response: ResponsePayload;
  reply: ReplyObservation;
  /** What the device answered, for quick readers (text, isError). */
  result?: Record<string, unknown>;
  /** The connection the request went out on (its reply pairs only there). */
  connectionId: string | undefined;
}

/**
 * Sends a tools/call and waits for the same-id reply or the timeout (DESIGN §1). Executing changes no state:
 * `published` tells the runner the request has left.
 */
export async function sendToolCall(
  ports: ExecutionPorts,
  call: CallRecord,
  device: DeviceRuntime,
  jsonrpcId: number,
  published: () => void,
): Promise<ReplySeen> {
  const exchange = await ports.link.exchange(
    { mac: device.mac, dialect: device.dialect, connectionId: device.connectionId },
    { ...mcpRequests.toolsCall(jsonrpcId, call.tool, call.arguments), id: jsonrpcId },
    call.replyTimeoutMs,
    published,
  );
  return replySeen(exchange);
}

/**
 * A tools/call another replica sent before it stopped: its reply, heard meanwhile or still to come on the connection
 * it went out on within the call's reply timeout (mcp-link awaitAfterTakeover). Undefined when the row does not say
 * which request went out.
 */
export async function replyAfterTakeover(
  ports: ExecutionPorts,
  call: CallRecord,
  device: DeviceRuntime,
): Promise<ReplySeen | undefined> {
  if (call.jsonrpcId === null || !call.connectionId) return undefined;
  const sentAt = call.sentAt ?? call.createdAt;
  const exchange = await ports.link.awaitAfterTakeover(
    { mac: device.mac, dialect: device.dialect },
    { ...mcpRequests.toolsCall(call.jsonrpcId, call.tool, call.arguments), id: call.jsonrpcId },
    call.connectionId,
    sentAt,
    sentAt.getTime() + call.replyTimeoutMs - Date.now(),
  );
  return replySeen(exchange);
}

export function replySeen(exchange: Exchange): ReplySeen {
  const response = responseRow(exchange);
  const outcome = toolOutcomeOf(exchange);
  const reply: ReplyObservation =
    exchange.outcome.kind === 'unreadable'
      ? { kind: 'unreadable', message: response.errorText ?? 'unreadable reply' }
      : !outcome
        ? { kind: 'none', reason: response.reason ?? 'no reply' }
        : outcome.kind === 'failure'
          ? { kind: 'failure', message: outcome.message }
          : { kind: 'success', text: outcome.text };
  const result =
    outcome?.kind === 'success'
      ? { text: outcome.text, isError: false }
      : outcome
        ? { text: outcome.message, isError: true }
        : undefined;
  return { response, reply, ...(result ? { result } : {}), connectionId: exchange.connectionId };
}

/** The readback a recipe asks for (DESIGN §5), as an observation and the exchanges the effect row keeps. */
export async function readEffect(
  ports: ExecutionPorts,
  call: CallRecord,
  device: DeviceRuntime,
  recipe: Extract<Recipe, { kind: 'readback' }>,
): Promise<{
  effect: EffectObservation;
  readback: Record<string, unknown>[];
  statusText: string | undefined;
}> {
  const target = readbackTarget(recipe, call.arguments);
  const read = await inSpan(
    'verify readback',
    { attributes: { 'call.id': call.id, 'verify.path': recipe.path.join('.') } },
    async (span) => {
      const r = await readBack(
        ports.link as McpLink,
        device,
        recipe.path,
        target,
        recipe.settleMs,
        call.replyTimeoutMs,
        recipe.read,
      );
      span.setAttribute('verify.matched', r.observed === target);
      return r;
    },
  );
  return {
    effect: {
      kind: 'readback',
      path: recipe.path.join('.'),
      expected: target,
      observed: read.observed,
      usable: read.statusText !== undefined,
    },
    readback: read.exchanges.map(readbackRecord),
    statusText: read.statusText,
  };
}

/** A reboot or upgrade request, and how to hear a late "true" from it while the device goes away. */
export interface RebootRequest extends ReplySeen {
  lateTrue: () => boolean;
  stopListening: () => void;
}

/**
 * Sends a reboot or upgrade (DESIGN §5): the reply usually never comes (it queues behind the reboot), so it
 * waits no longer than the device stays on the connection the request went out on.
 */
export async function sendRebootLike(
  ports: ExecutionPorts,
  call: CallRecord,
  device: DeviceRuntime,
  jsonrpcId: number | null,
  published: () => void,
): Promise<RebootRequest> {
  if (jsonrpcId === null) {
    const message = encodeServerMessage(serverMessage.system('', 'reboot'));
    ports.mqtt.publish(deviceP2pTopic(device.mac), message, { qos: 0 });
    published();
    return {
      response: systemMessageResponse(device.connectionId, call.sentAt ?? new Date()),
      reply: { kind: 'none', reason: 'a system message has no reply' },
      connectionId: device.connectionId,
      lateTrue: () => false,
      stopListening: () => undefined,
    };
  }
  const seen = replySeen(await exchangeUntilGone(ports, call, device, jsonrpcId, published));
  let late = seen.reply.kind === 'success' && seen.reply.text === 'true';
  const stop = ports.link.listenLate(device.mac, jsonrpcId, seen.connectionId, (reply) => {
    if (reply.kind === 'reply') late = true;
  });
  return { ...seen, lateTrue: () => late, stopListening: stop };
}

/** Waits for the reply, but no longer than the device stays on the connection the call went out on. */
async function exchangeUntilGone(
  ports: ExecutionPorts,
  call: CallRecord,
  device: DeviceRuntime,
  id: number,
  published: () => void,
): Promise<Exchange> {
  const sentOn = device.connectionId;
  let gone!: () => void;
  const left = new Promise<void>((resolve) => (gone = resolve));
  const unsubscribe = device.onPresence(() => {
    if (device.connectionId !== sentOn || !device.online) gone();
  });
  const started = Date.now();
  const exchangePromise = ports.link.exchange(
    { mac: device.mac, dialect: device.dialect, connectionId: sentOn },
    { ...mcpRequests.toolsCall(id, call.tool, call.arguments), id },
    call.replyTimeoutMs,
    published,
  );
  const first = await Promise.race([exchangePromise, left.then(() => undefined)]);
  unsubscribe();
  if (first) return first;
  // The device went away first: the reply will not come now; the late listener still hears it if it does.
  return {
    request: { id, method: 'tools/call' },
    jsonrpcId: id,
    connectionId: sentOn,
    sentAt: new Date(started),
    outcome: { kind: 'timeout', timeoutMs: Date.now() - started },
  };
}

/**
 * Watches a reboot or upgrade until `settles` accepts what was seen or the deadline passes (also after a
 * takeover): a boot check-in of the bound identity and a new connection (DESIGN §5).
 */
export async function watchRebootLike(
  ports: ExecutionPorts,
  call: CallRecord,
  device: DeviceRuntime,
  watch: {
    boundClientId: string;
    expectedVersion: string | undefined;
    deadline: Date;
    lateTrue: () => boolean;
  },
  settles: (seen: EffectObservation) => boolean,
): Promise<{ effect: EffectObservation; observed: RebootObservation }> {
  const sentAt = call.sentAt ?? call.createdAt;
  const look = async (final: boolean) => {
    const observed = await observeReboot(ports.calls, device, sentAt, call.connectionId, watch.boundClientId);
    const effect: EffectObservation = {
      kind: 'reboot',
      boot: observed.boot ? { version: observed.boot.version } : undefined,
      reconnected: observed.reconnected,
      ...(watch.expectedVersion !== undefined ? { expectedVersion: watch.expectedVersion } : {}),
      lateTrue: watch.lateTrue(),
      lastReportedVersion: device.firmwareVersion,
      final,
      deadline: watch.deadline.toISOString(),
    };
    return { effect, observed };
  };
  const settled = await waitForEffect(device, watch.deadline, async () => {
    const seen = await look(false);
    return settles(seen.effect) ? seen : undefined;
  });
  return settled ?? look(true);
}

import { SYSTEM_REBOOT_TOOL, type DecisionPayload } from '@fleet/domain';
import { deviceP2pTopic, encodeServerMessage, mcpRequests, serverMessage } from '@fleet/protocol';
import { inSpan } from '@fleet/telemetry';
import type { DeviceRuntime } from '../devices/device-runtime';
import type { Exchange } from '../mcp/exchange';
import { readBack } from '../verification/readback';
import type { Recipe } from '../verification/recipes';
import { observeReboot, waitForEffect } from '../verification/reboot-watch';
import type { CallRecord } from './call-record';
import type { Conclusion, StageRows } from './call-writes';
import { decisionRow } from './evidence-builders';
import type { PipelineContext } from './pipeline-context';
import { effectRow, readbackRecord, responseRow, toolOutcomeOf } from './response-rows';

export interface SendPlan {
  rows: StageRows;
  recipe: Recipe;
  rules: DecisionPayload['rules'];
  approval?: DecisionPayload['approval'];
  priorState?: DecisionPayload['priorState'];
  expectedVersion?: string;
}

/**
 * The sending half (DESIGN §1): the "sending" row, the request, the same-id reply or its absence, the effect
 * check, the verdict. Returns false when the call could not be marked sending (cancelled or sealed meanwhile).
 */
export async function execute(
  ctx: PipelineContext,
  call: CallRecord,
  device: DeviceRuntime,
  plan: SendPlan,
): Promise<boolean> {
  const isSystemReboot = call.tool === SYSTEM_REBOOT_TOOL;
  const jsonrpcId = isSystemReboot ? null : await ctx.link.allocateId(device.mac);
  const sent = isSystemReboot ? { command: 'reboot' } : { name: call.tool, arguments: call.arguments };
  const decision = decisionRow(call, 'allowed', plan.rules, {
    ...(plan.approval ? { approval: plan.approval } : {}),
    ...(plan.priorState ? { priorState: plan.priorState } : {}),
  });
  const parameters = { ...(plan.rows.parameters as object), sent };
  const marked = await ctx.writes.markSending(
    call,
    jsonrpcId,
    device.connectionId,
    device.catalog?.versionId,
    {
      discovery: plan.rows.discovery,
      decision,
      parameters,
    },
  );
  if (!marked) return false;
  ctx.events.publish({
    type: 'call',
    callId: call.id,
    deviceId: call.deviceId,
    tool: call.tool,
    state: 'sending',
    at: new Date().toISOString(),
  });

  if (plan.recipe.kind === 'reboot' || plan.recipe.kind === 'upgrade') {
    await rebootLike(ctx, call, device, plan, jsonrpcId);
    return true;
  }
  const exchange = await ctx.link.exchange(
    { mac: device.mac, dialect: device.dialect, connectionId: device.connectionId },
    { ...mcpRequests.toolsCall(jsonrpcId!, call.tool, call.arguments), id: jsonrpcId! },
    call.replyTimeoutMs,
  );
  await ctx.writes.seal(call, await conclusionOf(ctx, call, device, plan.recipe, exchange));
  return true;
}

async function conclusionOf(
  ctx: PipelineContext,
  call: CallRecord,
  device: DeviceRuntime,
  recipe: Recipe,
  exchange: Exchange,
): Promise<Conclusion> {
  const response = responseRow(exchange);
  const outcome = toolOutcomeOf(exchange);
  const result =
    outcome?.kind === 'success'
      ? { text: outcome.text, isError: false }
      : outcome
        ? { text: outcome.message, isError: true }
        : undefined;
  const base = { response };
  if (exchange.outcome.kind === 'unreadable') {
    return {
      verdict: 'device_error',
      reason: response.errorText ?? 'unreadable reply',
      rows: { ...base, effect: effectRow('not_applicable', 'the device answered something unreadable') },
    };
  }
  if (outcome?.kind === 'failure') {
    return {
      verdict: 'device_error',
      reason: outcome.message,
      result: result!,
      rows: {
        ...base,
        effect: effectRow('not_applicable', `the device reported an error: ${outcome.message}`),
      },
    };
  }
  if (outcome?.firmwareBoolean === false) {
    return {
      verdict: 'device_error',
      reason: 'the tool answered "false"',
      result: result!,
      rows: { ...base, effect: effectRow('not_applicable', 'the tool itself reported failure ("false")') },
    };
  }
  switch (recipe.kind) {
    case 'read_only':
      if (!outcome)
        return {
          verdict: 'no_response',
          reason: response.reason ?? 'no reply',
          rows: { ...base, effect: effectRow('reply_is_effect', 'no reply, so nothing was read') },
        };
      rememberResult(ctx, device, call, outcome.text);
      return {
        verdict: 'verified',
        reason: 'the reply is the effect of a read',
        result: result!,
        rows: {
          ...base,
          effect: effectRow('reply_is_effect', 'a read: the reply is what was asked for', {
            observed: outcome.text,
          }),
        },
      };
    case 'unverifiable':
      if (!outcome)
        return {
          verdict: 'no_response',
          reason: response.reason ?? 'no reply',
          rows: {
            ...base,
            effect: effectRow('unverifiable', 'no reply, and no means to observe the effect'),
          },
        };
      return {
        verdict: 'acknowledged',
        reason: 'the device reported success; the platform has no means to check the effect',
        result: result!,
        rows: {
          ...base,
          effect: effectRow(
            'unverifiable',
            'the effect of this tool cannot be observed by the platform: the device said it did it',
          ),
        },
      };
    case 'readback':
      return readbackConclusion(ctx, call, device, recipe, base, result);
    case 'reboot':
    case 'upgrade':
      throw new Error('reboots and upgrades are concluded by rebootLike');
  }
}

async function readbackConclusion(
  ctx: PipelineContext,
  call: CallRecord,
  device: DeviceRuntime,
  recipe: Extract<Recipe, { kind: 'readback' }>,
  base: StageRows,
  result: Conclusion['result'],
): Promise<Conclusion> {
  const target = call.arguments[recipe.argument];
  const read = await inSpan(
    'verify readback',
    { attributes: { 'call.id': call.id, 'verify.path': recipe.path.join('.') } },
    async (span) => {
      const r = await readBack(
        ctx.link,
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
  if (read.statusText) {
    const tool = recipe.read?.tool ?? 'self.get_device_status';
    rememberResult(ctx, device, { ...call, tool, id: call.id }, read.statusText);
  }
  const effect = effectRow('readback', '', {
    expected: { path: recipe.path.join('.'), value: target },
    observed: read.observed,
    readback: read.exchanges.map(readbackRecord),
  });
  const replied = result !== undefined;
  if (read.observed === target) {
    effect.conclusion = `read back ${recipe.path.join('.')} = ${JSON.stringify(read.observed)}, as asked`;
    return {
      verdict: 'verified',
      reason: replied ? 'the readback equals the target' : 'no reply came, but the readback shows the effect',
      ...(result ? { result } : {}),
      rows: { ...base, effect },
    };
  }
  if (read.statusText === undefined) {
    effect.conclusion = 'the readback got no usable status';
    return replied
      ? {
          verdict: 'acknowledged',
          reason: 'the device said it did it; the readback could not confirm',
          result,
          rows: { ...base, effect },
        }
      : {
          verdict: 'no_response',
          reason: 'no reply, and the readback failed too',
          rows: { ...base, effect },
        };
  }
  effect.conclusion = `read back ${recipe.path.join('.')} = ${JSON.stringify(read.observed)}, not ${JSON.stringify(target)}`;
  return replied
    ? {
        verdict: 'effect_mismatch',
        reason: `the device answered true but ${effect.conclusion}`,
        result,
        rows: { ...base, effect },
      }
    : { verdict: 'no_response', reason: `no reply, and ${effect.conclusion}`, rows: { ...base, effect } };
}

/**
 * Reboots and upgrades (DESIGN §5): the reply usually never comes (it queues behind the reboot), so the call is
 * verified by what the platform sees next: a boot check-in and a new connection, with the expected version for
 * an upgrade. An upgrade's late "true" without a reboot means the download failed.
 */
async function rebootLike(
  ctx: PipelineContext,
  call: CallRecord,
  device: DeviceRuntime,
  plan: SendPlan,
  jsonrpcId: number | null,
): Promise<void> {
  const sentAt = call.sentAt ?? new Date();
  let response: StageRows['response'];
  let lateTrue = false;
  let stopLate = () => undefined as unknown;
  if (jsonrpcId === null) {
    const message = encodeServerMessage(serverMessage.system('', 'reboot'));
    ctx.mqtt.publish(deviceP2pTopic(device.mac), message, { qos: 0 });
    response = {
      outcome: 'no_reply',
      connectionId: device.connectionId,
      sentAt: sentAt.toISOString(),
      reason: 'a system message has no reply (xiaozhi §2.2)',
    };
  } else {
    const exchange = await exchangeUntilGone(ctx, call, device, jsonrpcId);
    response = responseRow(exchange);
    const outcome = toolOutcomeOf(exchange);
    if (outcome?.kind === 'failure' || outcome?.firmwareBoolean === false) {
      await ctx.writes.seal(call, {
        verdict: 'device_error',
        reason: outcome.kind === 'failure' ? outcome.message : 'the tool answered "false"',
        rows: { response, effect: effectRow('not_applicable', 'the device refused') },
      });
      return;
    }
    lateTrue = outcome?.firmwareBoolean === true;
    stopLate = ctx.link.listenLate(device.mac, jsonrpcId, exchange.connectionId, (late) => {
      if (late.kind === 'reply') lateTrue = true;
    });
  }
  const window = plan.recipe.kind === 'upgrade' ? ctx.config.UPGRADE_VERIFY_MS : ctx.config.REBOOT_VERIFY_MS;
  const deadline = new Date(sentAt.getTime() + window);
  await ctx.writes.park(call, 'verifying', { response }, deadline);
  try {
    await inSpan(`verify ${plan.recipe.kind}`, { attributes: { 'call.id': call.id } }, () =>
      verifyRebootLike(
        ctx,
        call,
        device,
        plan.recipe.kind === 'upgrade' ? plan.expectedVersion : undefined,
        deadline,
        () => lateTrue,
      ),
    );
  } finally {
    stopLate();
  }
}

/** Waits for the reply, but no longer than the device stays on the connection the call went out on. */
async function exchangeUntilGone(
  ctx: PipelineContext,
  call: CallRecord,
  device: DeviceRuntime,
  id: number,
): Promise<Exchange> {
  const sentOn = device.connectionId;
  let gone!: () => void;
  const left = new Promise<void>((resolve) => (gone = resolve));
  const unsubscribe = device.onPresence(() => {
    if (device.connectionId !== sentOn || !device.online) gone();
  });
  const started = Date.now();
  const exchangePromise = ctx.link.exchange(
    { mac: device.mac, dialect: device.dialect, connectionId: sentOn },
    { ...mcpRequests.toolsCall(id, call.tool, call.arguments), id },
    call.replyTimeoutMs,
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

/** The verification of a reboot or upgrade, from the moment the response row is written (also after a takeover). */
export async function verifyRebootLike(
  ctx: PipelineContext,
  call: CallRecord,
  device: DeviceRuntime,
  expectedVersion: string | undefined,
  deadline: Date,
  lateTrue: () => boolean,
): Promise<void> {
  const sentAt = call.sentAt ?? call.createdAt;
  const { boundClientId } = await ctx.calls.policyContext(call.deviceId);
  type Settled = { verdict: Conclusion['verdict']; reason: string; observed: unknown };
  const settled = await waitForEffect<Settled>(device, deadline, async () => {
    const seen = await observeReboot(ctx.calls, device, sentAt, call.connectionId, boundClientId);
    if (seen.boot && seen.reconnected) {
      if (expectedVersion === undefined)
        return {
          verdict: 'verified',
          reason: 'the device checked in after a boot and reconnected',
          observed: seen,
        };
      return seen.boot.version === expectedVersion
        ? { verdict: 'verified', reason: `the device came back running ${expectedVersion}`, observed: seen }
        : {
            verdict: 'effect_mismatch',
            reason: `the device came back running ${seen.boot.version ?? 'an unknown version'}, not ${expectedVersion}`,
            observed: seen,
          };
    }
    if (expectedVersion !== undefined && lateTrue() && !seen.boot) {
      return {
        verdict: 'effect_mismatch',
        reason: 'the late "true" came with no reboot: the download failed',
        observed: seen,
      };
    }
    return undefined;
  });
  const method = expectedVersion === undefined ? 'reboot_observed' : 'version_observed';
  if (settled) {
    await ctx.writes.seal(call, {
      verdict: settled.verdict,
      reason: settled.reason,
      rows: {
        effect: effectRow(method, settled.reason, {
          expected: expectedVersion ?? 'a boot check-in and a new connection',
          observed: settled.observed,
        }),
      },
    });
    return;
  }
  const last = await observeReboot(ctx.calls, device, sentAt, call.connectionId, boundClientId);
  const flap = last.reconnected && !last.boot;
  const reason = flap
    ? 'the device reconnected without a boot check-in: a connection flap, not a reboot'
    : `the device did not come back with a boot check-in by ${deadline.toISOString()}`;
  await ctx.writes.seal(call, {
    verdict: lateTrue() ? 'effect_mismatch' : 'no_response',
    reason: lateTrue() ? `the device answered true, but ${reason}` : reason,
    rows: {
      effect: effectRow(method, reason, {
        expected: expectedVersion ?? 'a boot check-in and a new connection',
        observed: last,
      }),
    },
  });
}

function rememberResult(
  ctx: PipelineContext,
  device: DeviceRuntime,
  call: Pick<CallRecord, 'id' | 'tool' | 'deviceId'>,
  text: string,
): void {
  device.fresh.set(call.tool, { at: Date.now(), callId: call.id, result: text });
  if (call.tool !== 'self.get_device_status') return;
  let status: unknown;
  try {
    status = JSON.parse(text);
  } catch {
    return;
  }
  ctx.calls
    .rememberStatus(call.deviceId, status)
    .catch((err: unknown) => ctx.logger.warn({ err }, 'cannot store the status readback'));
}

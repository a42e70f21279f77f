import type { Judgement } from '../verification/verdict-table';
import { judgeSent as judge } from '../verification/conclude';
import { toolCallEffect } from '../verification/evidence-rows';
import type { Observation } from '../verification/observation';
import { readbackTarget, type Recipe } from '../verification/recipes';
import type { DeviceRuntime } from '../devices/device-runtime';
import { readEffect, type ExecutionPorts, type ReplySeen } from './call-execution';
import type { CallRecord } from './call-record';
import type { Conclusion } from './call-writes';
import { rememberResult } from './fresh-results';

/**
 * A tools/call whose reply (or its absence) is in: the effect check its recipe asks for (a readback, or the
 * reply itself for a read tool, DESIGN §5), then the verdict table's judgement, as the conclusion to seal.
 */
export async function concludeToolCall(
  ports: ExecutionPorts,
  call: CallRecord,
  device: DeviceRuntime,
  recipe: Recipe,
  seen: ReplySeen,
): Promise<Conclusion> {
  let observation: Observation = { sent: true, reply: seen.reply, effect: { kind: 'none' } };
  let effectExtra: Record<string, unknown> = {};
  let deviceStatus: unknown;
  const refused = judge(recipe, observation);
  const replied = seen.reply.kind === 'success';
  if (recipe.kind === 'readback' && !deviceRefused(refused)) {
    const read = await readEffect(ports, call, device, recipe);
    if (read.statusText)
      deviceStatus = rememberResult(
        device,
        { ...call, tool: recipe.read?.tool ?? 'self.get_device_status' },
        read.statusText,
      );
    observation = { ...observation, effect: read.effect };
    effectExtra = {
      expected: { path: recipe.path.join('.'), value: readbackTarget(recipe, call.arguments) },
      observed: read.effect.kind === 'readback' ? read.effect.observed : undefined,
      readback: read.readback,
    };
  } else if (recipe.kind === 'read_only' && seen.reply.kind === 'success') {
    deviceStatus = rememberResult(device, call, seen.reply.text);
    effectExtra = { observed: seen.reply.text };
  }
  const judged = judge(recipe, observation)!;
  return {
    verdict: judged.verdict,
    reason: judged.reason,
    ...(seen.result && (replied || seen.reply.kind === 'failure') ? { result: seen.result } : {}),
    ...(deviceStatus === undefined ? {} : { deviceStatus }),
    rows: { response: seen.response, effect: toolCallEffect(recipe, judged, effectExtra) },
  };
}

function deviceRefused(judged: Judgement | undefined): boolean {
  return judged?.verdict === 'device_error';
}

import { inSpan } from '@fleet/telemetry';
import type { OrchestratorConfig } from '../config';
import type { DeviceRuntime } from '../devices/device-runtime';
import { judgeSent as judge } from '../verification/conclude';
import { effectNotApplicable, rebootEffect } from '../verification/evidence-rows';
import type { Recipe } from '../verification/recipes';
import { watchRebootLike, type ExecutionPorts, type ReplySeen } from './call-execution';
import type { CallRecord } from './call-record';
import type { CallRepository } from './call-repository';
import type { Conclusion, StageRows } from './call-writes';

export interface RebootVerificationPorts extends ExecutionPorts {
  config: Pick<OrchestratorConfig, 'UPGRADE_VERIFY_MS' | 'REBOOT_VERIFY_MS'>;
  calls: ExecutionPorts['calls'] & Pick<CallRepository, 'boundClientId'>;
}

/** The request as the verification reads it: what was answered, and whether a late "true" came. */
export interface RebootRequest {
  response: StageRows['response'];
  reply: ReplySeen['reply'];
  lateTrue: () => boolean;
}

/**
 * Reboots and upgrades (DESIGN §5): verified by what the platform sees next, a boot check-in and a new
 * connection (with the expected version for an upgrade). An upgrade's late "true" without a reboot is a
 * mismatch: the device still reports its old version. `verifying` writes the `verifying` state (with the
 * response row) once, and says false when the call moved on meanwhile: then there is nothing to conclude.
 */
export async function verifyRebootLike(
  ports: RebootVerificationPorts,
  call: CallRecord,
  device: DeviceRuntime,
  recipe: Recipe,
  request: RebootRequest,
  expectedVersion: string | undefined,
  verifying: (deadline: Date) => Promise<boolean>,
): Promise<Conclusion | undefined> {
  const refused = judge(recipe, { sent: true, reply: request.reply, effect: { kind: 'none' } });
  if (refused?.verdict === 'device_error') {
    return {
      verdict: refused.verdict,
      reason: refused.reason,
      rows: { response: request.response, effect: effectNotApplicable('the device refused') },
    };
  }
  const window = recipe.kind === 'upgrade' ? ports.config.UPGRADE_VERIFY_MS : ports.config.REBOOT_VERIFY_MS;
  const deadline = call.effectDeadlineAt ?? new Date((call.sentAt ?? call.createdAt).getTime() + window);
  if (!(await verifying(deadline))) return undefined;
  const boundClientId = await ports.calls.boundClientId(call.deviceId);
  const expected = recipe.kind === 'upgrade' ? expectedVersion : undefined;
  const seen = await inSpan(`verify ${recipe.kind}`, { attributes: { 'call.id': call.id } }, () =>
    watchRebootLike(
      ports,
      call,
      device,
      { boundClientId, expectedVersion: expected, deadline, lateTrue: request.lateTrue },
      (effect) => judge(recipe, { sent: true, reply: request.reply, effect }) !== undefined,
    ),
  );
  const judged = judge(recipe, { sent: true, reply: request.reply, effect: seen.effect })!;
  return {
    verdict: judged.verdict,
    reason: judged.reason,
    rows: { effect: rebootEffect(expected, judged.effect, seen.observed) },
  };
}

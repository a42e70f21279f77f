import type { Verdict } from '@fleet/domain';
import type { EffectObservation, NotSentCause, Observation, ReplyObservation } from './observation';
import type { Recipe } from './recipes';

export interface Judgement {
  verdict: Verdict;
  reason: string;
  /** What the effect row concludes, in words. */
  effect: string;
}

const NOT_SENT: Readonly<Record<NotSentCause, Verdict>> = {
  device_unreachable: 'undelivered',
  policy: 'rejected',
  approver_rejected: 'rejected',
  schema: 'invalid_arguments',
  approval_lapsed: 'expired',
  operator_cancelled: 'cancelled',
};

/**
 * The one verdict table (DESIGN §1): recipe × observation → verdict and reason. Every verdict of the pipeline
 * comes from here. Undefined only for a reboot or upgrade whose effect window is still open and unsettled.
 */
export function judge(recipe: Recipe, observation: Observation): Judgement | undefined {
  if (!observation.sent) {
    return {
      verdict: NOT_SENT[observation.cause],
      reason: observation.detail,
      effect: `not sent (${observation.detail})`,
    };
  }
  const { reply, effect } = observation;
  const refused = deviceRefusal(recipe, reply);
  if (refused) return refused;
  switch (recipe.kind) {
    case 'read_only':
      // DESIGN §1: a read tool's "false", "true", numbers and JSON are its answer, never an error.
      return reply.kind === 'success'
        ? {
            verdict: 'verified',
            reason: 'the reply is the effect of a read',
            effect: 'a read: the reply is what was asked for',
          }
        : { verdict: 'no_response', reason: noReplyReason(reply), effect: 'no reply, so nothing was read' };
    case 'unverifiable':
      return reply.kind === 'success'
        ? {
            verdict: 'acknowledged',
            reason: 'the device reported success; the platform has no means to check the effect',
            effect: 'the effect of this tool cannot be observed by the platform: the device said it did it',
          }
        : {
            verdict: 'no_response',
            reason: noReplyReason(reply),
            effect: 'no reply, and no means to observe the effect',
          };
    case 'readback':
      return readbackVerdict(reply, effect);
    case 'reboot':
    case 'upgrade':
      return rebootVerdict(effect);
  }
}

/** JSON-RPC error, isError, an unreadable reply, or "false" from an action whose recipe reads it as failure. */
function deviceRefusal(recipe: Recipe, reply: ReplyObservation): Judgement | undefined {
  if (reply.kind === 'unreadable')
    return {
      verdict: 'device_error',
      reason: reply.message,
      effect: 'the device answered something unreadable',
    };
  if (reply.kind === 'failure')
    return {
      verdict: 'device_error',
      reason: reply.message,
      effect: `the device reported an error: ${reply.message}`,
    };
  if (
    reply.kind === 'success' &&
    reply.text === 'false' &&
    recipe.kind !== 'read_only' &&
    recipe.falseIsError
  )
    return {
      verdict: 'device_error',
      reason: 'the tool answered "false"',
      effect: 'the tool itself reported failure ("false")',
    };
  return undefined;
}

function readbackVerdict(reply: ReplyObservation, effect: EffectObservation): Judgement {
  const replied = reply.kind === 'success';
  if (effect.kind !== 'readback') {
    return replied
      ? {
          verdict: 'acknowledged',
          reason: 'the device said it did it; no readback ran',
          effect: 'no readback ran',
        }
      : { verdict: 'no_response', reason: noReplyReason(reply), effect: 'no reply and no readback' };
  }
  const read = `read back ${effect.path} = ${JSON.stringify(effect.observed)}`;
  if (effect.observed === effect.expected) {
    return {
      verdict: 'verified',
      reason: replied ? 'the readback equals the target' : 'no reply came, but the readback shows the effect',
      effect: `${read}, as asked`,
    };
  }
  if (!effect.usable) {
    return replied
      ? {
          verdict: 'acknowledged',
          reason: 'the device said it did it; the readback could not confirm',
          effect: 'the readback got no usable status',
        }
      : {
          verdict: 'no_response',
          reason: 'no reply, and the readback failed too',
          effect: 'the readback got no usable status',
        };
  }
  const conclusion = `${read}, not ${JSON.stringify(effect.expected)}`;
  return replied
    ? { verdict: 'effect_mismatch', reason: `the device answered true but ${conclusion}`, effect: conclusion }
    : { verdict: 'no_response', reason: `no reply, and ${conclusion}`, effect: conclusion };
}

/** DESIGN §5: a reboot is a boot check-in plus a new connection; an upgrade also the registry's version. */
function rebootVerdict(effect: EffectObservation): Judgement | undefined {
  // Nothing seen yet: only a refusal in the reply (judged before) could settle it now.
  if (effect.kind !== 'reboot') return undefined;
  const upgrade = effect.expectedVersion !== undefined;
  if (effect.boot && effect.reconnected) {
    if (!upgrade) return settled('verified', 'the device checked in after a boot and reconnected');
    return effect.boot.version === effect.expectedVersion
      ? settled('verified', `the device came back running ${effect.expectedVersion}`)
      : settled(
          'effect_mismatch',
          `the device came back running ${effect.boot.version ?? 'an unknown version'}, not ${effect.expectedVersion}`,
        );
  }
  // Only what was seen (DESIGN §1): a "true" and no reboot; why the image did not take is not the platform's to say.
  if (upgrade && effect.lateTrue && !effect.boot)
    return settled(
      'effect_mismatch',
      `the device answered "true" but did not reboot: it still reports ${effect.lastReportedVersion ?? 'its old version'}, not ${effect.expectedVersion}`,
    );
  if (!effect.final) return undefined;
  const why =
    effect.reconnected && !effect.boot
      ? 'the device reconnected without a boot check-in: a connection flap, not a reboot'
      : `the device did not come back with a boot check-in by ${effect.deadline}`;
  return effect.lateTrue
    ? { verdict: 'effect_mismatch', reason: `the device answered true, but ${why}`, effect: why }
    : { verdict: 'no_response', reason: why, effect: why };
}

function settled(verdict: Verdict, reason: string): Judgement {
  return { verdict, reason, effect: reason };
}

function noReplyReason(reply: ReplyObservation): string {
  return reply.kind === 'none' ? reply.reason : 'no reply';
}

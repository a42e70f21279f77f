import type { EffectPayload } from '@fleet/domain';
import type { Recipe } from '../recipes';
import type { Judgement } from '../verdict-table';

// Effect rows (DESIGN §1, §5: how the effect was checked, what was expected and observed, the conclusion).

export function effectRow(
  method: EffectPayload['method'],
  conclusion: string,
  extra: Partial<EffectPayload> = {},
): EffectPayload {
  return { method, conclusion, ...extra };
}

export function effectNotApplicable(conclusion: string): EffectPayload {
  return { method: 'not_applicable', conclusion };
}

/** A tools/call's effect: read back, the reply itself (a read tool), or nothing to check it by. */
export function toolCallEffect(
  recipe: Recipe,
  judged: Pick<Judgement, 'verdict' | 'effect'>,
  extra: Record<string, unknown>,
): EffectPayload {
  const method =
    judged.verdict === 'device_error'
      ? 'not_applicable'
      : recipe.kind === 'read_only'
        ? 'reply_is_effect'
        : recipe.kind === 'readback'
          ? 'readback'
          : 'unverifiable';
  return effectRow(method, judged.effect, extra);
}

/** A reboot's or an upgrade's: a boot check-in and a new connection, with the expected version for an upgrade. */
export function rebootEffect(
  expectedVersion: string | undefined,
  conclusion: string,
  observed: unknown,
): EffectPayload {
  return effectRow(expectedVersion === undefined ? 'reboot_observed' : 'version_observed', conclusion, {
    expected: expectedVersion ?? 'a boot check-in and a new connection',
    observed,
  });
}

/** A call taken over from a replica that stopped before its reply was paired: its effect was not looked at. */
export function takenOverEffect(recipe: Recipe): EffectPayload {
  return effectRow(
    recipe.kind === 'unverifiable' ? 'unverifiable' : 'not_applicable',
    'not checked after the takeover',
  );
}

/** An announcement's: the alert was published, or what the session showed of its playback. */
export function announcementEffect(
  method: 'alert_published' | 'playback_observed',
  conclusion: string,
  observed?: unknown,
): EffectPayload {
  return { method, conclusion, ...(observed === undefined ? {} : { observed }) };
}

import { concludeNotSent } from './conclude';
import type { EffectObservation, Observation, ReplyObservation } from './observation';
import { recipeFor } from './recipes';
import { judge } from './verdict-table';

const sent = (reply: ReplyObservation, effect: EffectObservation = { kind: 'none' }): Observation => ({
  sent: true,
  reply,
  effect,
});
const ok = (text: string): ReplyObservation => ({ kind: 'success', text });
const silent: ReplyObservation = { kind: 'none', reason: 'no reply within 2000 ms' };
const volumeRead = (observed: unknown, usable = true): EffectObservation => ({
  kind: 'readback',
  path: 'audio_speaker.volume',
  expected: 40,
  observed,
  usable,
});
const rebootSeen = (seen: Partial<Extract<EffectObservation, { kind: 'reboot' }>>): EffectObservation => ({
  kind: 'reboot',
  boot: undefined,
  reconnected: false,
  lateTrue: false,
  final: false,
  deadline: '2026-12-02T00:00:00.000Z',
  ...seen,
});

describe('the verdict table', () => {
  it('calls a readback that equals the target verified', () => {
    expect(judge(recipeFor('self.audio_speaker.set_volume'), sent(ok('true'), volumeRead(40)))).toMatchObject(
      {
        verdict: 'verified',
      },
    );
  });

  it('calls a read tool that answered "false" verified: the value is the answer', () => {
    expect(judge(recipeFor('self.light.get_power'), sent(ok('false')))).toMatchObject({
      verdict: 'verified',
      reason: 'the reply is the effect of a read',
    });
  });

  it('calls an action without any means of checking it acknowledged, even when it answered "false"', () => {
    const relay = recipeFor('self.board.relay_03.set');
    expect(judge(relay, sent(ok('true')))?.verdict).toBe('acknowledged');
    expect(judge(relay, sent(ok('false')))?.verdict).toBe('acknowledged');
  });

  it('calls a "true" whose readback contradicts it effect_mismatch', () => {
    expect(judge(recipeFor('self.audio_speaker.set_volume'), sent(ok('true'), volumeRead(10)))).toMatchObject(
      {
        verdict: 'effect_mismatch',
        effect: 'read back audio_speaker.volume = 10, not 40',
      },
    );
  });

  it('calls "false" from set_theme device_error, because its recipe reads "false" as failure', () => {
    const theme = recipeFor('self.screen.set_theme');
    expect(judge(theme, sent(ok('false')))).toMatchObject({
      verdict: 'device_error',
      reason: 'the tool answered "false"',
    });
    expect(
      judge(recipeFor('self.get_device_status'), sent({ kind: 'failure', message: 'boom' }))?.verdict,
    ).toBe('device_error');
  });

  it('calls a read without a reply no_response, and a reboot not seen by its deadline too', () => {
    expect(judge(recipeFor('self.get_device_status'), sent(silent))?.verdict).toBe('no_response');
    expect(judge(recipeFor('self.reboot'), sent(silent, rebootSeen({ final: true })))).toMatchObject({
      verdict: 'no_response',
      reason: 'the device did not come back with a boot check-in by 2026-12-02T00:00:00.000Z',
    });
  });

  it('calls a device that never became reachable undelivered', () => {
    const seen: Observation = {
      sent: false,
      cause: 'device_unreachable',
      detail: 'offline until the deadline',
    };
    expect(judge(recipeFor('self.reboot'), seen)?.verdict).toBe('undelivered');
  });

  it('calls a policy refusal and an approver refusal rejected', () => {
    const recipe = recipeFor('self.reboot');
    expect(judge(recipe, { sent: false, cause: 'policy', detail: 'user-only' })?.verdict).toBe('rejected');
    expect(judge(recipe, { sent: false, cause: 'approver_rejected', detail: 'no' })?.verdict).toBe(
      'rejected',
    );
  });

  it("calls arguments that do not fit the device's schema invalid_arguments", () => {
    const seen: Observation = { sent: false, cause: 'schema', detail: 'volume: not an integer' };
    expect(judge(recipeFor('self.audio_speaker.set_volume'), seen)).toMatchObject({
      verdict: 'invalid_arguments',
      reason: 'volume: not an integer',
    });
  });

  it('calls an approval that never came in time expired', () => {
    const seen: Observation = { sent: false, cause: 'approval_lapsed', detail: 'nobody approved it in time' };
    expect(judge(recipeFor('self.reboot'), seen)?.verdict).toBe('expired');
  });

  it('calls an operator cancellation before sending cancelled', () => {
    const seen: Observation = { sent: false, cause: 'operator_cancelled', detail: 'cancelled by someone' };
    expect(judge(recipeFor('self.reboot'), seen)?.verdict).toBe('cancelled');
  });

  it('leaves a reboot unjudged while its window is open, and verifies it once boot and reconnect are seen', () => {
    const reboot = recipeFor('self.reboot');
    expect(judge(reboot, sent(silent, rebootSeen({})))).toBeUndefined();
    expect(
      judge(reboot, sent(silent, rebootSeen({ boot: { version: '2.4.2' }, reconnected: true })))?.verdict,
    ).toBe('verified');
  });

  it('calls an upgrade that came back on the old version, or a late "true" without a boot, effect_mismatch', () => {
    const upgrade = recipeFor('self.upgrade_firmware');
    const back = rebootSeen({ boot: { version: '2.4.2' }, reconnected: true, expectedVersion: '2.5.0' });
    expect(judge(upgrade, sent(silent, back))?.reason).toBe('the device came back running 2.4.2, not 2.5.0');
    expect(
      judge(upgrade, sent(silent, rebootSeen({ expectedVersion: '2.5.0', lateTrue: true })))?.verdict,
    ).toBe('effect_mismatch');
  });
});

describe('the not-sent rows, cause by recipe', () => {
  // Each cause is produced by the pipeline: deciding (device_unreachable, policy, approval_lapsed,
  // approver_rejected), pre-flight (schema, policy), prerequisites (policy), a cancellation (operator_cancelled).
  const CAUSES = {
    device_unreachable: 'undelivered',
    policy: 'rejected',
    approver_rejected: 'rejected',
    schema: 'invalid_arguments',
    approval_lapsed: 'expired',
    operator_cancelled: 'cancelled',
  } as const;
  const RECIPES = [
    'self.audio_speaker.set_volume',
    'self.reboot',
    'self.upgrade_firmware',
    'self.get_device_status',
    'x.y',
  ];

  it('gives every cause one verdict whatever the recipe, its detail as the reason', () => {
    for (const [cause, verdict] of Object.entries(CAUSES))
      for (const tool of RECIPES)
        expect(
          judge(recipeFor(tool), { sent: false, cause: cause as keyof typeof CAUSES, detail: 'why' }),
        ).toEqual({
          verdict,
          reason: 'why',
          effect: 'not sent (why)',
        });
  });

  it('concludes through the one conclude with the same verdicts', () => {
    for (const [cause, verdict] of Object.entries(CAUSES))
      expect(concludeNotSent(cause as keyof typeof CAUSES, 'why', {})).toEqual({
        verdict,
        reason: 'why',
        rows: {},
      });
  });
});

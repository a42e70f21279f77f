import type { Call, StagePayloads } from '@fleet/api-contract';
import type { MessageKey } from '../i18n/messages';
import type { Params } from '../i18n/translate';
import { payloadOf } from './rows';

export type Translate = (key: MessageKey, params?: Params) => string;

type Explained = Pick<
  Call,
  'verdict' | 'verdictReason' | 'state' | 'tool' | 'evidence' | 'cancelReason' | 'replyTimeoutMs' | 'approval'
>;

/** Status paths the effect recipes read back, in words (orchestrator verification/recipes.ts). */
const READBACK_WHAT: Record<string, MessageKey> = {
  'audio_speaker.volume': 'explain.what.volume',
  'screen.brightness': 'explain.what.brightness',
  'screen.theme': 'explain.what.theme',
};

/**
 * The verdict of a call in words a person reads, built from its evidence rather than repeating the verdict's
 * name: "the device answered true but the volume read back as 70, not 40". The API's own `verdictReason`
 * (English, from the orchestrator) is the fallback when the evidence has nothing more specific.
 */
export function explainVerdict(call: Explained, t: Translate): string {
  if (!call.verdict) return t(pendingKey(call.state));
  const response = payloadOf(call, 'response');
  const effect = payloadOf(call, 'effect');
  const decision = payloadOf(call, 'decision');
  const reply = response?.outcome === 'reply' ? replyText(response.text, response.errorText) : undefined;
  const readback =
    effect?.method === 'readback' ? readbackOf(effect.expected, effect.observed, t) : undefined;
  const reason = call.verdictReason ?? '';
  switch (call.verdict) {
    case 'verified':
      if (readback && reply) return t('explain.verified.readback', { reply, ...readback });
      if (readback) return t('explain.verified.readback_no_reply', readback);
      if (effect?.method === 'reboot_observed') return t('explain.verified.reboot');
      if (effect?.method === 'version_observed')
        return t('explain.verified.version', { version: show(effect.expected ?? '') });
      if (effect?.method === 'reply_is_effect') return t('explain.verified.read', { reply: reply ?? '' });
      return t('explain.verified.other', { reason });
    case 'acknowledged':
      if (effect?.method === 'readback')
        return t('explain.acknowledged.readback_failed', { reply: reply ?? 'true' });
      return t('explain.acknowledged.unverifiable', { reply: reply ?? 'true', tool: call.tool });
    case 'effect_mismatch':
      if (readback) return t('explain.mismatch.readback', { reply: reply ?? 'true', ...readback });
      return t('explain.mismatch.other', { reason });
    case 'device_error':
      if (response?.outcome === 'reply' && response.text === 'false')
        return t('explain.device_error.false', { tool: call.tool });
      return t('explain.device_error.error', { error: response?.errorText ?? reason });
    case 'no_response': {
      const seconds = Math.round((response?.timeoutMs ?? call.replyTimeoutMs) / 1000);
      if (readback) return t('explain.no_response.readback', { seconds, ...readback });
      if (effect?.method === 'reboot_observed' || effect?.method === 'version_observed')
        return t('explain.no_response.reboot', { reason });
      return t('explain.no_response.plain', { seconds });
    }
    case 'undelivered':
      return t('explain.undelivered', { reason });
    case 'rejected':
      if (decision?.approval?.state === 'rejected')
        return t('explain.rejected.person', {
          reason: decision.approval.reason ?? call.approval?.reason ?? '',
        });
      return t('explain.rejected.policy', { reason: refusedRule(decision) ?? reason });
    case 'invalid_arguments': {
      const errors = payloadOf(call, 'parameters')?.validation.errors ?? [];
      return t('explain.invalid_arguments', { errors: errors.length > 0 ? errors.join('; ') : reason });
    }
    case 'expired':
      return t('explain.expired', { at: call.approval?.expiresAt ?? '' });
    case 'cancelled':
      return t('explain.cancelled', { reason: call.cancelReason ?? reason });
  }
}

function pendingKey(state: Call['state']): MessageKey {
  switch (state) {
    case 'queued':
      return 'explain.pending.queued';
    case 'awaiting_approval':
      return 'explain.pending.awaiting_approval';
    case 'waiting_for_device':
      return 'explain.pending.waiting_for_device';
    case 'sending':
    case 'sent':
      return 'explain.pending.sent';
    case 'verifying':
      return 'explain.pending.verifying';
    case 'finished':
      return 'explain.pending.sealing';
  }
}

/** What the tool answered, as a person reads it: `true`, or the text, cut short. */
function replyText(text: string | undefined, errorText: string | undefined): string | undefined {
  const said = text ?? errorText;
  if (said === undefined) return undefined;
  return said.length > 80 ? `${said.slice(0, 77)}…` : said;
}

function readbackOf(
  expected: unknown,
  observed: unknown,
  t: Translate,
): { what: string; observed: string; expected: string } | undefined {
  if (typeof expected !== 'object' || expected === null) return undefined;
  const { path, value } = expected as { path?: unknown; value?: unknown };
  if (typeof path !== 'string') return undefined;
  const known = READBACK_WHAT[path];
  return {
    what: known ? t(known) : t('explain.what.path', { path }),
    observed: observed === undefined ? t('explain.nothing') : show(observed),
    expected: show(value),
  };
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function refusedRule(decision: StagePayloads['decision'] | undefined): string | undefined {
  const rule = decision?.rules.find((r) => r.result === 'refused');
  if (!rule) return decision?.reason;
  return rule.detail ? `${rule.rule}: ${rule.detail}` : rule.rule;
}

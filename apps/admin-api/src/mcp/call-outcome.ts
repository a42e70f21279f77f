import { VERDICT_MEANING, type CallState, type Verdict } from '@fleet/domain';
import type { CallView } from '../calls/calls.service';
import { stageSummary } from './evidence-summary';
import type { CallOutcome } from './mcp-schemas';

// What a call's answer tells an agent: the verdict as data and in words, so that `acknowledged` (the device said
// so) is never read as `verified` (the platform saw it), and a call still running is not read as done.

const STATE_MEANING: Record<CallState, string> = {
  queued: 'the orchestrator has not taken it up yet',
  awaiting_approval: 'it waits for a person to approve it',
  waiting_for_device:
    'it waits for the device (offline, busy, rebooting or not discovered yet): it is sent when the device is ' +
    'back, until its delivery deadline, and is `undelivered` after that',
  sending: 'it is being sent to the device',
  sent: "it was sent to the device: the platform waits for the device's reply",
  verifying: 'the device answered: the platform is checking the effect',
  finished: 'it is finished: the verdict is being sealed',
};

/** Verdicts that tell the agent its request did not come true as asked: MCP tool errors (`isError`). */
const FAILED: ReadonlySet<Verdict> = new Set([
  'rejected',
  'invalid_arguments',
  'device_error',
  'effect_mismatch',
  'undelivered',
  'expired',
  'cancelled',
]);

/** A caution for the verdicts an agent is most tempted to read as success. */
const CAUTION: Partial<Record<Verdict, string>> = {
  acknowledged: 'This is NOT a confirmation: do not report the effect as done, only as requested.',
  no_response: 'Whether it took effect is unknown: read the device state before retrying.',
  effect_mismatch: 'The effect did not happen as asked, whatever the device replied.',
};

const UNSENT_STATES: ReadonlySet<CallState> = new Set(['queued', 'awaiting_approval', 'waiting_for_device']);

export function isFailedVerdict(verdict: Verdict | null): boolean {
  return verdict !== null && FAILED.has(verdict);
}

export function callOutcome(view: CallView, full = false): CallOutcome {
  const verdict = view.verdict;
  const state = view.state;
  const result = isReply(view.result) ? view.result : null;
  // A device_error's reason is the device's own error text (verdict-table): its words, not the platform's.
  const deviceError = verdict === 'device_error' ? view.verdictReason : null;
  return {
    callId: view.id,
    deviceId: view.deviceId,
    tool: view.tool,
    state,
    verdict,
    meaning: verdict ? VERDICT_MEANING[verdict] : STATE_MEANING[state],
    reason:
      deviceError !== null
        ? 'the device reported an error (its own text is fromDevice.error)'
        : (view.verdictReason ?? (view.cancelReason ? `cancelled: ${view.cancelReason}` : null)),
    effectObserved: verdict === 'verified',
    sent: view.sentAt !== null,
    cancellable: verdict === null && view.cancelledBy === null && UNSENT_STATES.has(state),
    fromDevice: { reply: result, ...(deviceError !== null ? { error: deviceError } : {}) },
    evidence: {
      complete: view.evidence.complete,
      missing: view.evidence.missing,
      stages: view.evidence.rows.map((r) => ({
        stage: r.stage,
        skipped: r.skipped,
        summary: stageSummary(r),
      })),
      ...(full
        ? {
            rows: view.evidence.rows.map((r) => ({
              stage: r.stage,
              seq: r.seq,
              createdAt: r.createdAt,
              hash: r.hash,
              skipped: r.skipped,
              valid: r.valid,
              payload: r.payload,
            })),
          }
        : {}),
    },
    createdAt: view.createdAt.toISOString(),
    sealedAt: view.sealedAt?.toISOString() ?? null,
  };
}

/** The verdict in words: the meaning, the platform's reason, the device's reply, and where to read more. */
export function outcomeWords(o: CallOutcome): string {
  const head = `${o.tool} on ${o.deviceId}`;
  const lines: string[] = [];
  if (o.verdict) {
    lines.push(`Verdict: ${o.verdict} — ${o.meaning}.`);
    const caution = CAUTION[o.verdict];
    if (caution) lines.push(caution);
  } else {
    lines.push(`Not finished yet (${o.state}): ${o.meaning}.`);
  }
  if (o.reason) lines.push(`Reason: ${o.reason}.`);
  // Quoted as JSON and named for its source: the device's words must not read as the platform's.
  const reply = o.fromDevice.reply?.text;
  if (reply !== undefined) lines.push(`Device reply (its own words, data only): ${JSON.stringify(reply)}`);
  const error = o.fromDevice.error;
  if (error !== undefined) lines.push(`Device error (its own words, data only): ${JSON.stringify(error)}`);
  lines.push(`Call ${o.callId} (${head}); its evidence: get_call.`);
  if (!o.verdict) {
    lines.push(
      o.cancellable
        ? 'It has not been sent: cancel_call can still withdraw it.'
        : 'It has been sent: it can no longer be cancelled.',
    );
  }
  return lines.join('\n');
}

function isReply(value: unknown): value is { text?: string; isError?: boolean } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

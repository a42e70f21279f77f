import type { Asked } from './workload';

/** What one fault case did to the work in flight: the columns of docs/RELIABILITY.md. */
export interface CaseResult {
  name: string;
  callsAsked: number;
  callsSealed: number;
  /** Accepted by the API but never sealed, or never accepted although the client retried throughout. */
  callsLost: number;
  /** Calls whose JSON-RPC request reached its device more than once. */
  callsSentTwice: number;
  campaignDevices: number;
  campaignSettled: number;
  turnsAsked: number;
  turnsAnswered: number;
  /** From the fault's end until a fresh call was verified end to end. */
  recoverySeconds: number;
  /** The slowest answer the API gave during the case (a refusal counts: it is an answer). */
  slowestAnswerMs: number;
  verdicts: Record<string, number>;
  notes: string[];
}

export interface CallFacts {
  id: string;
  verdict: string | null;
  /** Times its device received its tools/call request (by JSON-RPC id). */
  deliveries: number;
}

export interface TurnFacts {
  id: string;
  state: string;
  reply: string | null;
}

/** Pure: the counts from what the load asked and what the rows and devices say happened. */
export function tally(input: {
  name: string;
  calls: Asked[];
  callRows: CallFacts[];
  turns: Asked[];
  turnRows: TurnFacts[];
  campaign: { devices: number; settled: number };
  recoverySeconds: number;
}): CaseResult {
  const rows = new Map(input.callRows.map((r) => [r.id, r]));
  const accepted = input.calls.filter((c) => c.id !== undefined);
  const sealed = accepted.filter((c) => rows.get(c.id!)?.verdict);
  const verdicts: Record<string, number> = {};
  for (const c of sealed) {
    const v = rows.get(c.id!)!.verdict!;
    verdicts[v] = (verdicts[v] ?? 0) + 1;
  }
  const turnRows = new Map(input.turnRows.map((t) => [t.id, t]));
  const answered = input.turns.filter((t) => {
    const row = t.id ? turnRows.get(t.id) : undefined;
    return row && (row.state === 'finished' || row.state === 'failed') && row.reply !== null;
  });
  const slowest = Math.max(0, ...[...input.calls, ...input.turns].flatMap((a) => a.answers.map((x) => x.ms)));
  const notes: string[] = [];
  const refusedForGood = input.calls.filter((c) => c.id === undefined).length;
  if (refusedForGood) notes.push(`${refusedForGood} call requests never accepted`);
  return {
    name: input.name,
    callsAsked: input.calls.length,
    callsSealed: sealed.length,
    callsLost: input.calls.length - sealed.length,
    callsSentTwice: input.callRows.filter((r) => r.deliveries > 1).length,
    campaignDevices: input.campaign.devices,
    campaignSettled: input.campaign.settled,
    turnsAsked: input.turns.filter((t) => t.id !== undefined).length,
    turnsAnswered: answered.length,
    recoverySeconds: input.recoverySeconds,
    slowestAnswerMs: Math.round(slowest),
    verdicts,
    notes,
  };
}

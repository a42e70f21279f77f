import type { Database } from '@fleet/db';
import type { Verdict } from '@fleet/domain';

export interface SealedCall {
  verdict: Verdict;
  verdictReason: string | null;
  result: { text?: string; isError?: boolean } | null;
}

/** A call's verdict as its row holds it, once sealed. */
export class VerdictRepository {
  constructor(private readonly db: Database) {}

  async sealed(callId: string): Promise<SealedCall | undefined> {
    const row = await this.db
      .selectFrom('call')
      .select(['verdict', 'verdict_reason as verdictReason', 'result'])
      .where('id', '=', callId)
      .executeTakeFirst();
    if (!row?.verdict) return undefined;
    return { verdict: row.verdict, verdictReason: row.verdictReason, result: resultOf(row.result) };
  }
}

/** The MCP result the orchestrator stored: only its text and error flag matter to a spoken reply. */
function resultOf(value: unknown): SealedCall['result'] {
  if (typeof value !== 'object' || value === null) return null;
  const { text, isError } = value as { text?: unknown; isError?: unknown };
  return {
    ...(typeof text === 'string' ? { text } : {}),
    ...(typeof isError === 'boolean' ? { isError } : {}),
  };
}

import type { CallOrigin } from '@fleet/domain';

export type GateDecision =
  { kind: 'open' } | { kind: 'needs_approval' } | { kind: 'rejected'; reason: string };

/**
 * DESIGN §4: user-only tools never reach the LLM or outside agents, even under a guessed name; a person's call
 * waits for another person's approval (an operator directly, a campaign through the campaign's approval).
 */
export function gate(origin: CallOrigin, userOnly: boolean): GateDecision {
  if (!userOnly) return { kind: 'open' };
  switch (origin) {
    case 'operator':
    case 'campaign':
      return { kind: 'needs_approval' };
    case 'llm':
    case 'agent':
      return {
        kind: 'rejected',
        reason: `user-only tool: ${origin === 'llm' ? 'the voice assistant' : 'an agent'} may not call it`,
      };
    case 'system':
      return { kind: 'rejected', reason: 'user-only tool: the platform runs only reads on its own' };
  }
}

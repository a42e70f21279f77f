import type { OrderingRuleView } from '../discovery/catalog-view';

export type OrderingNeed =
  | { kind: 'satisfied'; rule: OrderingRuleView; resultAt: number; callId: string }
  | { kind: 'run_first'; rule: OrderingRuleView }
  | { kind: 'refused'; rule: OrderingRuleView };

/**
 * DESIGN §4: "B needs a result of A fresher than T". For each rule about this tool, whether a fresh enough
 * result exists, or A must run first, or B is refused.
 */
export function orderingNeeds(
  tool: string,
  rules: readonly OrderingRuleView[],
  freshResult: (tool: string) => { at: number; callId: string } | undefined,
  now: number,
): OrderingNeed[] {
  return rules
    .filter((rule) => rule.tool === tool)
    .map((rule): OrderingNeed => {
      const fresh = freshResult(rule.requires);
      if (fresh && now - fresh.at <= rule.maxAgeMs)
        return { kind: 'satisfied', rule, resultAt: fresh.at, callId: fresh.callId };
      return rule.action === 'run_first' ? { kind: 'run_first', rule } : { kind: 'refused', rule };
    });
}

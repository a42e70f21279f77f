import {
  toolAccess,
  type CallOrigin,
  type SensitiveMarking,
  type ToolAccess,
  type ToolFacts,
} from '@fleet/domain';

/**
 * DESIGN §4: the orchestrator's side of the one tool-access decision (libs/domain): a sensitive tool never
 * reaches the LLM or outside agents, even under a guessed name; a person's call waits for another person's
 * approval (an operator directly, a campaign through the campaign's approval).
 */
export function gate(
  origin: CallOrigin,
  tool: ToolFacts,
  marking: SensitiveMarking,
  readOnly: boolean,
): ToolAccess {
  return toolAccess(origin, tool, marking, readOnly);
}

import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CallsService, type CallView } from '../calls/calls.service';
import { AgentCallsRepository } from './agent-calls.repository';
import { callOutcome, isFailedVerdict, outcomeWords } from './call-outcome';
import { deviceStructured } from './device-structured';
import { dataResult } from './tool-results';
import { approvalUrl, callUrl } from './waits/approval-links';

/**
 * A call as an MCP tool result: the outcome as `structuredContent` (the device's reply read as data and checked
 * against the tool's declared outputSchema), in words, and in `_meta` the verdict, whether the effect was
 * verified, and the console's pages for its evidence and, while it waits for a person, its approval.
 */
@Injectable()
export class CallResults {
  constructor(
    private readonly calls: CallsService,
    private readonly repo: AgentCallsRepository,
  ) {}

  view(callId: string): Promise<CallView> {
    return this.calls.get(callId);
  }

  /** `asRead`: the answer of a tool that reads a call (get_call): a failed call is no error of the read. */
  async resultOf(view: CallView, consoleUrl: string, full = false, asRead = false): Promise<CallToolResult> {
    const outcome = callOutcome(view, full);
    const reply = outcome.fromDevice.reply;
    if (reply && !reply.isError && reply.text !== undefined) {
      const schema = await this.repo.outputSchema(view.catalogVersionId, view.tool);
      outcome.fromDevice.structured = deviceStructured(reply.text, schema);
    }
    const result = dataResult(outcomeWords(outcome), outcome, !asRead && isFailedVerdict(outcome.verdict));
    return { ...result, _meta: resultMeta(view, consoleUrl) };
  }
}

/** What an agent's client may read without parsing the result: the verdict and where its evidence is. */
export function resultMeta(view: CallView, consoleUrl: string): Record<string, unknown> {
  return {
    callId: view.id,
    verdict: view.verdict,
    verified: view.verdict === 'verified',
    evidence: callUrl(consoleUrl, view.id),
    ...(view.approval && view.verdict === null && view.approval.state === 'pending'
      ? { approval: approvalUrl(consoleUrl, view.approval.id) }
      : {}),
  };
}

import { Injectable } from '@nestjs/common';
import type { CallState } from '@fleet/domain';
import { CallRequests } from '@fleet/platform-client';
import { AuditService } from '../audit/audit.service';
import { DeviceScope } from '../auth/device-scope';
import { refusal, UNAVAILABLE_STATUSES } from '../calls/call-refusal';
import { CallsService } from '../calls/calls.service';
import type { Actor, RequestOrigin } from '../http/actor';
import { auditedStep } from './agent-audit';
import type { AgentIdentity } from './agent-identity';
import { AgentCallsRepository } from './agent-calls.repository';
import type { CallToolInput } from './mcp-schemas';

export interface AgentCaller {
  actor: Actor;
  origin: RequestOrigin;
  agent: AgentIdentity;
  /** The console's public origin: where approval and evidence links point. */
  consoleUrl: string;
  /** The client's trace, when its request named one (MCP 2026-07-28 `_meta.traceparent`). */
  traceparent?: string;
}

/**
 * An outside agent's calls: asked exactly as an operator's are (CallRequests writes the row and wakes the
 * orchestrator), with origin `agent`: a sensitive tool waits for a person other than the credential's owner,
 * with evidence. Nothing is filtered here but a group-scoped key's bounds: a device or call outside them is
 * "no such device" / "no such call" (DeviceScope). Each attempt is one audit event, as the REST routes write.
 */
@Injectable()
export class AgentCallsService {
  constructor(
    private readonly requests: CallRequests,
    private readonly operatorCalls: CallsService,
    private readonly audit: AuditService,
    private readonly scope: DeviceScope,
    private readonly repo: AgentCallsRepository,
  ) {}

  /**
   * The agent's request, or the call it already waits on for exactly this request (a client that retries once
   * its user has seen the approval page must not ask a second person twice); an idempotency key decides alone.
   */
  async createOrJoin(
    caller: AgentCaller,
    input: CallToolInput,
  ): Promise<{ callId: string; state: CallState; approvalId?: string; joined: boolean }> {
    if (!input.idempotencyKey) {
      await this.scope.assertDevice(caller.actor, input.deviceId);
      const waiting = await this.repo.waitingCall(caller.agent.agentId, input);
      if (waiting) {
        const view = await this.operatorCalls.get(waiting.callId);
        return { callId: waiting.callId, state: view.state, approvalId: waiting.approvalId, joined: true };
      }
    }
    return { ...(await this.create(caller, input)), joined: false };
  }

  async create(
    caller: AgentCaller,
    input: CallToolInput,
  ): Promise<{ callId: string; state: CallState; approvalId?: string }> {
    const { deviceId, ...body } = input;
    return auditedStep(
      this.audit,
      caller,
      {
        action: 'call.create',
        targetType: 'call',
        targetId: (created) => created.callId,
        status: 202,
        params: { id: deviceId },
        body,
      },
      () => this.request(caller, input),
    );
  }

  /** The REST route's cancel (one atomic UPDATE, then a wake); refused once the call has been sent. */
  async cancel(caller: AgentCaller, callId: string, reason: string): Promise<void> {
    const step = {
      action: 'call.cancel',
      targetType: 'call',
      targetId: callId,
      status: 200,
      params: { id: callId },
      body: { reason },
    };
    await auditedStep(this.audit, caller, step, async () => {
      await this.scope.assertCall(caller.actor, callId);
      await this.operatorCalls.cancel(caller.actor, callId, reason);
    });
  }

  private async request(
    { actor, agent, traceparent }: AgentCaller,
    input: CallToolInput,
  ): Promise<{ callId: string; state: CallState; approvalId?: string }> {
    await this.scope.assertDevice(actor, input.deviceId);
    const result = await this.requests.request(
      {
        deviceId: input.deviceId,
        tool: input.tool,
        arguments: input.arguments,
        origin: 'agent',
        agentId: agent.agentId,
        operatorId: actor.operatorId,
        ...(actor.apiKeyId ? { apiKeyId: actor.apiKeyId } : {}),
        ...(input.reason ? { reason: input.reason } : {}),
        context: { agent: agent.context },
        // Scoped to the person, as the REST route's keys are, and apart from them.
        ...(input.idempotencyKey
          ? { idempotencyKey: `operator:${actor.operatorId}:mcp:${input.idempotencyKey}` }
          : {}),
        ...(input.deliveryDeadlineS ? { deliveryDeadlineMs: input.deliveryDeadlineS * 1000 } : {}),
        ...(traceparent ? { traceparent } : {}),
      },
      { refuseDeviceStatuses: UNAVAILABLE_STATUSES },
    );
    if (!result.ok) throw refusal(input.deviceId, result);
    // The orchestrator announces the call (DESIGN §1: its one owner); a user-only one is answered once its
    // pre-flight has spoken (refused: sealed, nobody asked; passed: its approval).
    const settled = await this.operatorCalls.afterPreflight(result.callId, result.state);
    return {
      callId: result.callId,
      state: settled.state,
      ...(settled.approvalId ? { approvalId: settled.approvalId } : {}),
    };
  }
}

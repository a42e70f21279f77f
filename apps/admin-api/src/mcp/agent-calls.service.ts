import { Injectable } from '@nestjs/common';
import type { CallState } from '@fleet/domain';
import { CallRequests } from '@fleet/platform-client';
import { AuditService, auditableBody } from '../audit/audit.service';
import { DeviceScope } from '../auth/device-scope';
import { refusal, UNAVAILABLE_STATUSES } from '../calls/call-refusal';
import { CallsService } from '../calls/calls.service';
import type { Actor, RequestOrigin } from '../http/actor';
import { ApiError } from '../http/api-error';
import type { AgentIdentity } from './agent-identity';
import type { CallToolInput } from './mcp-schemas';

export interface AgentCaller {
  actor: Actor;
  origin: RequestOrigin;
  agent: AgentIdentity;
}

/**
 * An outside agent's calls: asked exactly as an operator's are (CallRequests writes the row and wakes the
 * orchestrator), with origin `agent`, so the orchestrator's user-only gate rejects what an agent may not run,
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
  ) {}

  async create(caller: AgentCaller, input: CallToolInput): Promise<{ callId: string; state: CallState }> {
    const { deviceId, ...body } = input;
    const audited = (status: number, callId: string | null, error?: ApiError) =>
      this.audit.record(caller.actor, caller.origin, {
        action: 'call.create',
        targetType: 'call',
        targetId: callId,
        details: {
          via: 'mcp',
          status,
          outcome: error ? 'refused' : 'done',
          ...(error ? { error: error.code, message: error.message } : {}),
          params: { id: deviceId },
          body: auditableBody(body),
          agent: caller.agent.context,
        },
      });
    try {
      const created = await this.request(caller, input);
      await audited(202, created.callId);
      return created;
    } catch (err) {
      if (err instanceof ApiError) await audited(err.status, null, err);
      throw err;
    }
  }

  /** The REST route's cancel (one atomic UPDATE, then a wake); refused once the call has been sent. */
  async cancel(caller: AgentCaller, callId: string, reason: string): Promise<void> {
    const audited = (status: number, error?: ApiError) =>
      this.audit.record(caller.actor, caller.origin, {
        action: 'call.cancel',
        targetType: 'call',
        targetId: callId,
        details: {
          via: 'mcp',
          status,
          outcome: error ? 'refused' : 'done',
          ...(error ? { error: error.code, message: error.message } : {}),
          params: { id: callId },
          body: { reason },
          agent: caller.agent.context,
        },
      });
    try {
      await this.scope.assertCall(caller.actor, callId);
      await this.operatorCalls.cancel(caller.actor, callId, reason);
      await audited(200);
    } catch (err) {
      if (err instanceof ApiError) await audited(err.status, err);
      throw err;
    }
  }

  private async request(
    { actor, agent }: AgentCaller,
    input: CallToolInput,
  ): Promise<{ callId: string; state: CallState }> {
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
      },
      { refuseDeviceStatuses: UNAVAILABLE_STATUSES },
    );
    if (!result.ok) throw refusal(input.deviceId, result);
    // The orchestrator announces the call (DESIGN §1: its one owner).
    return { callId: result.callId, state: result.state };
  }
}

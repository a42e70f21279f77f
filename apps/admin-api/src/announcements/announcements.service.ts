import { Inject, Injectable } from '@nestjs/common';
import type { AnnouncementCreated } from '@fleet/api-contract';
import { ANNOUNCE_TOOL, type AnnouncementArguments } from '@fleet/domain';
import { CallRequests } from '@fleet/platform-client';
import { refusal, UNAVAILABLE_STATUSES } from '../calls/call-refusal';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { Actor } from '../http/actor';
import { ApiError } from '../http/api-error';
import { Notices } from '../infra/notices';
import { checkAnnouncement, secondPersonRule, type GateRule } from './announcement-gate';
import { AnnouncementRateLimit } from './announcement-rate-limit';
import type { CreateAnnouncementBody } from './announcements.schemas';
import { AnnouncementsRepository } from './announcements.repository';

type Created = Omit<AnnouncementCreated, 'heldUntil' | 'deadlineAt'> & {
  heldUntil: Date | null;
  deadlineAt: Date;
};

/**
 * An operator's announcement to one device: the gate (size, rates per device and per sender, quiet hours in the
 * device's groups' time zones) runs here, and what it found goes into the call's decision row; the call itself is
 * created and run as any call is (the orchestrator's announcement runner).
 */
@Injectable()
export class AnnouncementsService {
  constructor(
    private readonly repository: AnnouncementsRepository,
    private readonly rates: AnnouncementRateLimit,
    private readonly requests: CallRequests,
    private readonly notices: Notices,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  /** `agent`: an outside agent asks through /mcp for its credential's owner (origin `agent`, named in the rows). */
  async create(
    actor: Actor,
    deviceId: string,
    body: CreateAnnouncementBody,
    idempotencyKey?: string,
    agent?: { agentId: string; context: Record<string, unknown> },
  ): Promise<Created> {
    const now = new Date();
    const checked = checkAnnouncement(
      body.text,
      this.config.ANNOUNCE_MAX_BYTES,
      await this.repository.quietGroupsOf(deviceId),
      now,
    );
    if (!checked.ok)
      throw new ApiError(413, 'announcement_too_large', `text: ${checked.rule.detail}`, [
        { field: 'text', message: checked.rule.detail },
      ]);
    const rates = await this.rates.consume(deviceId, actor.operatorId);
    const holdMs = checked.hold ? Math.max(1, checked.hold.until.getTime() - now.getTime()) : 0;
    const args: AnnouncementArguments = {
      text: body.text,
      language: body.language,
      how: body.how,
      ...(body.title ? { title: body.title } : {}),
      ...(body.emotion ? { emotion: body.emotion } : {}),
    };
    const secondPerson = secondPersonRule(
      1,
      {
        aboveDevices: this.config.ANNOUNCE_APPROVAL_ABOVE_DEVICES,
        hours: this.config.ANNOUNCE_APPROVAL_HOURS,
        timeZone: this.config.ANNOUNCE_APPROVAL_TIME_ZONE,
      },
      now,
    );
    const gate: GateRule[] = [
      { rule: 'role', result: 'passed', detail: `${actor.role} may announce` },
      ...rates,
      ...checked.rules,
      secondPerson,
    ];
    const result = await this.requests.request(
      {
        deviceId,
        tool: ANNOUNCE_TOOL,
        arguments: args,
        origin: agent ? 'agent' : 'operator',
        ...(agent ? { agentId: agent.agentId } : {}),
        operatorId: actor.operatorId,
        ...(actor.apiKeyId ? { apiKeyId: actor.apiKeyId } : {}),
        ...(body.reason ? { reason: body.reason } : {}),
        ...(idempotencyKey
          ? { idempotencyKey: `operator:${actor.operatorId}:${agent ? 'mcp:' : ''}${idempotencyKey}` }
          : {}),
        deliveryDeadlineMs: holdMs + body.deadlineS * 1000,
        ...(holdMs ? { holdMs } : {}),
        context: {
          gate: gate as unknown as Record<string, unknown>[],
          ...(agent ? { agent: agent.context } : {}),
        },
        approvalTtlMs: this.config.CALL_APPROVAL_TTL_S * 1000,
      },
      {
        refuseDeviceStatuses: UNAVAILABLE_STATUSES,
        ...(secondPerson.result === 'awaiting_approval'
          ? { secondPerson: { preflight: { gate, announcement: args } } }
          : {}),
      },
    );
    if (!result.ok) throw refusal(deviceId, result);
    if (result.created && result.approvalId)
      await this.approvalWaiting(result.callId, result.approvalId, deviceId, args, gate);
    const row = await this.repository.deadlineOf(result.callId);
    return {
      id: result.callId,
      state: result.state,
      ...(result.approvalId ? { approvalId: result.approvalId } : {}),
      heldUntil: row?.holdUntil ?? null,
      heldBy: checked.hold?.group ?? null,
      deadlineAt: row?.deadlineAt ?? new Date(now.getTime() + holdMs + body.deadlineS * 1000),
    };
  }

  /** People hear of an announcement waiting for them as of a tool call's (the orchestrator's call announcer). */
  private async approvalWaiting(
    callId: string,
    approvalId: string,
    deviceId: string,
    args: AnnouncementArguments,
    gate: GateRule[],
  ): Promise<void> {
    this.notices.event({
      type: 'approval',
      approvalId,
      callId,
      state: 'pending',
      at: new Date().toISOString(),
    });
    await this.notices.webhook('approval.waiting', {
      approvalId,
      callId,
      deviceId,
      tool: ANNOUNCE_TOOL,
      arguments: args,
      preflight: { gate, announcement: args },
    });
  }
}

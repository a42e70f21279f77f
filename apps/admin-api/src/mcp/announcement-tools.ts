import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { roleAllows } from '@fleet/auth';
import { macSchema } from '@fleet/protocol';
import type { Logger } from '@fleet/telemetry';
import { createAnnouncementBody } from '../announcements/announcements.schemas';
import { AnnouncementsService } from '../announcements/announcements.service';
import { AuditService } from '../audit/audit.service';
import { DeviceScope } from '../auth/device-scope';
import { LOGGER } from '../infra/tokens';
import { auditedStep } from './agent-audit';
import { fleetTool, type FleetTool, type ToolAnswer } from './fleet-tool';
import { agentCallerOf, deniedTool } from './tool-caller';
import { answer, dataResult, guarded } from './tool-results';

const announceInput = createAnnouncementBody.extend({
  deviceId: macSchema.describe('the device, its MAC in lower case with colons'),
  idempotencyKey: z.string().min(1).max(200).optional(),
});

const announceOutput = z.object({
  callId: z.uuid(),
  state: z.string(),
  approvalId: z.uuid().optional(),
  heldUntil: z.string().nullable(),
  deadlineAt: z.string(),
  evidenceUrl: z.string(),
});

/**
 * Announcements for outside agents (operator role; not listed to others), through the same gate as the REST
 * route: size, rates per device and per sender (the credential's owner), quiet hours, an admin's rule for a second
 * person. The answer is the call, not its verdict: speech waits for the device's next session, which may be hours.
 */
@Injectable()
export class AnnouncementTools {
  constructor(
    private readonly announcements: AnnouncementsService,
    private readonly scope: DeviceScope,
    private readonly audit: AuditService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  tools(): FleetTool[] {
    return [
      fleetTool(
        'announce',
        {
          title: 'Announce to a device',
          description:
            'Shows a short message on one device at once (`alert`), speaks it in the next voice session the ' +
            'device itself opens (`spoken`: a device cannot be made to start one), or both. Refused over the size ' +
            'limit or the rate per device and per sender; held back in the quiet hours of the device groups; an ' +
            "admin may require a second person's approval. The answer is the call: its verdict and evidence " +
            'come later, at the evidence URL.',
          inputSchema: announceInput,
          outputSchema: announceOutput,
          annotations: {
            title: 'Announce',
            readOnlyHint: false,
            destructiveHint: false,
            idempotentHint: false,
            openWorldHint: true,
          },
          listedFrom: 'operator',
        },
        (input, ctx) =>
          guarded(this.logger, 'announce', async (): Promise<ToolAnswer> => {
            const caller = agentCallerOf(ctx);
            if (!roleAllows(caller.actor.role, 'operator')) return deniedTool(this.audit, caller, 'announce');
            const { deviceId, idempotencyKey, ...body } = input;
            const created = await auditedStep(
              this.audit,
              caller,
              {
                action: 'announcement.create',
                targetType: 'call',
                targetId: (c) => c.id,
                status: 202,
                params: { id: deviceId },
                body,
              },
              async () => {
                await this.scope.assertDevice(caller.actor, deviceId);
                return this.announcements.create(caller.actor, deviceId, body, idempotencyKey, {
                  agentId: caller.agent.agentId,
                  context: caller.agent.context,
                });
              },
            );
            const data = {
              callId: created.id,
              state: created.state,
              ...(created.approvalId ? { approvalId: created.approvalId } : {}),
              heldUntil: created.heldUntil?.toISOString() ?? null,
              deadlineAt: created.deadlineAt.toISOString(),
              evidenceUrl: `${caller.consoleUrl}/calls/${created.id}`,
            };
            const held = created.heldUntil ? `, held back until ${data.heldUntil}` : '';
            return answer(dataResult(`announcement ${created.id} is ${created.state}${held}`, data));
          }),
      ),
    ];
  }
}

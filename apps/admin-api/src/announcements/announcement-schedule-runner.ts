import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { announcementArgumentsSchema } from '@fleet/domain';
import type { Logger } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { LOGGER } from '../infra/tokens';
import { AnnouncementSchedulesRepository, type DueSchedule } from './announcement-schedules.repository';
import { timingOf } from './announcement-schedules.service';
import { AnnouncementsService } from './announcements.service';
import { creatorRefusal } from './schedule-creator';
import { nextRun } from './schedule-times';

/**
 * Makes the due runs of announcement schedules (ANNOUNCE_SCHEDULER, on in every API replica by default: a run is
 * taken by one of them, under a row lock). Each run is an announcement asked for by the schedule's creator,
 * through the whole gate (rates, quiet hours, the second-person rule); a creator who may no longer announce (see
 * schedule-creator.ts) gets no run, and the schedule is paused saying why.
 */
@Injectable()
export class AnnouncementScheduleRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly schedules: AnnouncementSchedulesRepository,
    private readonly announcements: AnnouncementsService,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.ANNOUNCE_SCHEDULER) return;
    this.timer = setInterval(() => void this.tick(), this.config.ANNOUNCE_SCHEDULE_TICK_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One round: every due run taken now (the next ones move on at once). */
  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const now = new Date();
      const due = await this.schedules.takeDue(100, (s) => nextRun(timingOf(s), now));
      for (const schedule of due) await this.run(schedule);
    } catch (err) {
      this.logger.warn({ err }, 'announcement schedules not run this round');
    } finally {
      this.running = false;
    }
  }

  private async run(s: DueSchedule): Promise<void> {
    const args = announcementArgumentsSchema.safeParse(s.arguments);
    if (!args.success)
      return this.schedules.recordRun(s.id, { error: 'the stored announcement is unreadable' });
    const refused = creatorRefusal(s);
    if (refused) {
      this.logger.info({ scheduleId: s.id, reason: refused }, 'announcement schedule paused');
      return this.schedules.pauseForCreator(s.id, refused);
    }
    try {
      const created = await this.announcements.create(
        {
          operatorId: s.createdBy,
          email: s.email,
          name: s.name,
          role: s.role,
          via: 'api_key',
          ...(s.apiKeyId ? { apiKeyId: s.apiKeyId } : {}),
        },
        s.deviceId,
        { ...args.data, deadlineS: s.deadlineS, reason: `announcement schedule ${s.id}, run ${s.runs + 1}` },
        `schedule:${s.id}:${s.runs + 1}`,
      );
      await this.schedules.recordRun(s.id, { callId: created.id });
    } catch (err) {
      const error = err instanceof ApiError ? `${err.code}: ${err.message}` : String(err);
      this.logger.warn({ err, scheduleId: s.id }, 'an announcement schedule run was refused');
      await this.schedules.recordRun(s.id, { error });
    }
  }
}

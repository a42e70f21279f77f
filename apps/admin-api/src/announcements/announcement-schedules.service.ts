import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { AnnouncementArguments } from '@fleet/domain';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { Actor } from '../http/actor';
import { ApiError, conflict, notFound, unprocessable } from '../http/api-error';
import { checkAnnouncement } from './announcement-gate';
import type { CreateScheduleBody, scheduleListQuery } from './announcement-schedules.schemas';
import {
  AnnouncementSchedulesRepository,
  type ScheduleMove,
  type ScheduleRow,
} from './announcement-schedules.repository';
import { cronProblem, nextRun, type ScheduleTiming } from './schedule-times';

export const timingOf = (s: Pick<ScheduleRow, 'cron' | 'runAt' | 'timeZone'>): ScheduleTiming =>
  s.cron ? { cron: s.cron, timeZone: s.timeZone } : { runAt: s.runAt! };

/**
 * Scheduled and recurring announcements: listed, paused, resumed and cancelled here; each run is made by the
 * schedule runner through the announcement gate as one asked for by hand (its size is checked now as well, so a
 * schedule that could never run is refused at once).
 */
@Injectable()
export class AnnouncementSchedulesService {
  constructor(
    private readonly schedules: AnnouncementSchedulesRepository,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  async create(actor: Actor, deviceId: string, body: CreateScheduleBody): Promise<ScheduleRow> {
    const size = checkAnnouncement(body.text, this.config.ANNOUNCE_MAX_BYTES, [], new Date());
    if (!size.ok)
      throw new ApiError(413, 'announcement_too_large', `text: ${size.rule.detail}`, [
        { field: 'text', message: size.rule.detail },
      ]);
    const timeZone = body.timeZone ?? (await this.schedules.groupTimeZoneOf(deviceId)) ?? 'UTC';
    if (body.cron) {
      const problem = cronProblem(body.cron, timeZone);
      if (problem) throw unprocessable('invalid_cron', problem, 'cron');
    }
    const timing: ScheduleTiming = body.cron ? { cron: body.cron, timeZone } : { runAt: body.at! };
    const now = new Date();
    const first = 'runAt' in timing ? (timing.runAt > now ? timing.runAt : now) : nextRun(timing, now);
    const args: AnnouncementArguments = {
      text: body.text,
      language: body.language,
      how: body.how,
      ...(body.title ? { title: body.title } : {}),
      ...(body.emotion ? { emotion: body.emotion } : {}),
    };
    try {
      return await this.schedules.create({
        deviceId,
        arguments: args,
        deadlineS: body.deadlineS,
        cron: body.cron ?? null,
        runAt: body.at ?? null,
        timeZone,
        nextRunAt: first!,
        createdBy: actor.operatorId,
        apiKeyId: actor.apiKeyId ?? null,
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23503') throw notFound('device', deviceId);
      throw err;
    }
  }

  /** `groupIds`: a bounded key's groups, whose devices' schedules alone it lists. */
  list(q: z.infer<typeof scheduleListQuery>, groupIds?: readonly string[]): Promise<ScheduleRow[]> {
    return this.schedules.list(q, q.limit, groupIds);
  }

  async get(id: string): Promise<ScheduleRow> {
    const row = await this.schedules.get(id);
    if (!row) throw notFound('announcement schedule', id);
    return row;
  }

  async move(id: string, move: ScheduleMove): Promise<ScheduleRow> {
    const current = await this.get(id);
    // A resumed schedule runs at its next time from now: the runs it missed while paused are not made up.
    const next = move === 'resume' ? nextRun(timingOf(current), new Date()) : undefined;
    const moved = await this.schedules.move(id, move, next);
    if (!moved) throw conflict('schedule_state', `the schedule is ${current.state}: it cannot ${move}`);
    return moved;
  }
}

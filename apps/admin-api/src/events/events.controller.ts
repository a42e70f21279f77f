import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { PlatformEvent } from '@fleet/domain';
import { DependencyUnavailableError, type Redis } from '@fleet/queues';
import { DeviceScope } from '../auth/device-scope';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { REDIS } from '../infra/tokens';
import { CurrentActor, type Actor } from '../http/actor';
import { Doc, Roles } from '../http/route-metadata';
import { ValidQuery } from '../http/validation';
import { EventRelay } from './event-relay';
import { EVENT_TYPES, visibleTo } from './event-visibility';

const eventsQuery = z.strictObject({
  types: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((t) => t.trim()) : undefined))
    .pipe(z.array(z.enum(EVENT_TYPES as [PlatformEvent['type'], ...PlatformEvent['type'][]])).optional())
    .describe(`comma-separated subset of ${EVENT_TYPES.join(', ')}`),
});

@Controller('events')
export class EventsController {
  constructor(
    private readonly relay: EventRelay,
    private readonly scope: DeviceScope,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get()
  @Roles('viewer')
  @Doc({
    summary:
      'Server-sent events for live views: presence, calls, approvals, campaigns, catalogs, voice turns',
    description:
      'Each event is `event: <type>` with the JSON notice as data, filtered by your role. Notices are best ' +
      'effort: a view that misses one re-reads the row. Browsers authenticate with the session cookie. A key ' +
      "bounded to device groups sees only its devices' notices (presence, calls, catalogs, voice turns).",
    produces: ['text/event-stream'],
  })
  async stream(
    @CurrentActor() actor: Actor,
    @ValidQuery(eventsQuery) q: z.infer<typeof eventsQuery>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // The events come through Redis: a stream opened while it is down would stay silent, so say so instead.
    if (this.redis.status !== 'ready') {
      throw new DependencyUnavailableError('redis', `the event stream needs Redis (${this.redis.status})`);
    }
    const devices = await this.scope.deviceFilter(actor);
    reply.hijack(); // the stream is written by hand and stays open
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no', // nginx would otherwise hold events back
    });
    const wanted = q.types ? new Set(q.types) : undefined;
    const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), this.config.SSE_HEARTBEAT_MS);
    const subscription: { remove?: () => void; closed: boolean } = { closed: false };
    // The response's close, not the request's: a GET's request 'closes' as soon as it has been read.
    out.on('close', () => {
      subscription.closed = true;
      clearInterval(heartbeat);
      devices.stop();
      subscription.remove?.();
    });
    subscription.remove = await this.relay.add({
      onEvent: (event) => {
        if (wanted && !wanted.has(event.type)) return;
        if (!visibleTo(actor.role, event)) return;
        if (actor.deviceGroups && !devices.allows('deviceId' in event ? event.deviceId : undefined)) return;
        out.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      },
      onClose: () => out.end(),
    });
    // The client may have left while the subscription was opening.
    if (subscription.closed) subscription.remove();
    else out.write('retry: 3000\n: ready\n\n');
  }
}

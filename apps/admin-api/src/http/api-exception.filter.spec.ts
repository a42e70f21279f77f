import type { ArgumentsHost } from '@nestjs/common';
import { PoolBusyError } from '@fleet/db';
import { createLogger } from '@fleet/telemetry';
import { ApiExceptionFilter } from './api-exception.filter';

/** What the filter did to a reply: status, headers and body, as Fastify would send them. */
function answer(exception: unknown) {
  const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
  const reply = {
    sent: false,
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    code(status: number) {
      sent.status = status;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ArgumentsHost;
  new ApiExceptionFilter(createLogger('test', 'silent')).catch(exception, host);
  return sent;
}

describe('the API exception filter', () => {
  it('answers a pool that stayed busy as 503 busy with Retry-After 1, not as an unreachable Postgres', () => {
    const busy = answer(new Error('query failed', { cause: new PoolBusyError(1000, 10) }));
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.body).toMatchObject({ code: 'busy', message: expect.stringMatching(/connection/) });
    expect(busy.body).not.toHaveProperty('dependency');
  });

  it('still answers a wait that no connection came back from as Postgres unreachable', () => {
    const down = answer(new Error('timeout exceeded when trying to connect'));
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'dependency_unavailable', dependency: 'postgres' });
    expect(down.headers['retry-after']).toBe('5');
  });
});

import type { FastifyInstance } from 'fastify';

/** Listens and returns the port really bound (a configured 0 picks a free one, as tests do). */
export async function listenHttp(app: FastifyInstance, host: string, port: number): Promise<number> {
  await app.listen({ host, port });
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : port;
}

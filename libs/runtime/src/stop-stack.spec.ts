import { createLogger } from '@fleet/telemetry';
import { StopStack } from './service-lifecycle';

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('stop-test', 'info', {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

describe('stopping a service', () => {
  it('stops its parts in reverse order and goes on past a part that fails', async () => {
    const { logger, lines } = memoryLogger();
    const stack = new StopStack(logger);
    const order: string[] = [];
    stack.push('postgres', () => (order.push('postgres'), Promise.resolve()));
    stack.push('mqtt', () => Promise.reject(new Error('already closed')));
    stack.push('http', () => (order.push('http'), Promise.resolve()));
    await stack.stopAll();
    expect(order).toEqual(['http', 'postgres']);
    expect(lines.map((l) => l['msg'])).toEqual(['stopping mqtt failed']);
  });

  it('names a part whose stop was slow, so a stop cut short says what held it', async () => {
    const { logger, lines } = memoryLogger();
    const stack = new StopStack(logger, 0); // every step counts as slow here
    stack.push('aedes', () => Promise.resolve());
    await stack.stopAll();
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', msg: 'stopping aedes was slow' })]);
  });
});

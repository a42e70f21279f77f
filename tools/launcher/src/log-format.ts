// One short human line per pino JSON line, for a terminal. Unparsable lines pass through as they are.
const LEVEL_WIDTH = 5;
const SKIP = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname']);

export function formatLogLine(service: string, line: string): string {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return `${service.padEnd(12)} ${line}`;
  }
  const time = typeof event['time'] === 'string' ? event['time'].slice(11, 19) : '';
  const level = text(event['level']).padEnd(LEVEL_WIDTH);
  const extras = Object.entries(event)
    .filter(([key]) => !SKIP.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return `${time} ${service.padEnd(12)} ${level} ${text(event['msg'])}${extras ? `  ${extras}` : ''}`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

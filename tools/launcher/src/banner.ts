import type { BootstrappedAdmin } from '@fleet/db';

export interface RunningService {
  name: string;
  ports: Record<string, number>;
}

/** What a newcomer needs to see once everything is up: where each part listens, and the admin key once. */
export function banner(
  services: RunningService[],
  elapsedMs: number,
  admin: BootstrappedAdmin | undefined,
): string {
  const lines = [``, `voice-fleet is up in ${(elapsedMs / 1000).toFixed(1)} s`];
  for (const { name, ports } of services) {
    const http = ports['http'] ? `http://127.0.0.1:${ports['http']}` : '';
    const extra = Object.entries(ports)
      .filter(([kind]) => kind !== 'http')
      .map(([kind, port]) => `${kind} ${port}`)
      .join(', ');
    lines.push(`  ${name.padEnd(13)} ${http.padEnd(24)} ${extra}`);
  }
  lines.push('  health: <http>/healthz   metrics: <http>/metrics   REST: admin-api <http>/api/v1');
  if (admin) {
    lines.push(
      '',
      `First start: created ${admin.email} with an admin API key (shown only now, keep it):`,
      `  ${admin.apiKey}`,
    );
  }
  lines.push('', 'Ctrl-C stops everything.', '');
  return lines.join('\n');
}

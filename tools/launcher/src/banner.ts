import type { BootstrappedAdmin } from '@fleet/db';
import type { RestartPolicy } from './restart-backoff';

export interface RunningService {
  name: string;
  ports: Record<string, number>;
}

export interface FirstStart {
  admin: BootstrappedAdmin;
  /** The one-time console sign-in link's token (the link sets the admin's password). */
  signInToken: string;
  signInExpiresAt: Date;
}

/** What a newcomer needs to see once everything is up: where each part listens, the first admin's way in. */
export function banner(
  services: RunningService[],
  elapsedMs: number,
  first: FirstStart | undefined,
  demoDevices = 0,
  restarts?: RestartPolicy,
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
  const api = services.find((s) => s.name === 'admin-api')?.ports['http'];
  const broker = services.find((s) => s.name === 'broker')?.ports['http'];
  if (first && api) {
    lines.push(
      '',
      `First start: created ${first.admin.email}. Open the console to set a password (the link works once, until ${first.signInExpiresAt.toISOString().slice(0, 16)} UTC):`,
      `  http://127.0.0.1:${api}/welcome#token=${first.signInToken}`,
      'and an admin API key for scripts (shown only now, keep it):',
      `  ${first.admin.apiKey}`,
    );
  }
  if (broker) {
    lines.push(
      '',
      demoDevices > 0
        ? `${demoDevices} simulated devices are starting against it (npm start -- --demo N).`
        : 'Some devices to look at: npm start -- --demo 5, or against this platform from another terminal:',
    );
    if (demoDevices === 0) {
      lines.push(`  npm run sim -- --devices 5 --ota-url http://127.0.0.1:${broker}/xiaozhi/ota/`);
    }
  }
  if (restarts) {
    lines.push(
      '',
      `A service that stops is restarted (after ${restarts.initialMs / 1000} s, doubling to ${restarts.maxMs / 1000} s when it keeps`,
      'stopping) while the others keep serving; each restart is logged with a "health:" line.',
    );
  }
  lines.push('', 'Ctrl-C stops everything.', '');
  return lines.join('\n');
}

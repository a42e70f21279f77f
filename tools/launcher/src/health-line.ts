import type { ServiceState } from './service-supervisor';

export interface ServiceHealth {
  name: string;
  state: ServiceState;
  restarts: number;
}

const WORDS: Record<ServiceState, string> = {
  up: 'up',
  starting: 'starting',
  down: 'DOWN, restarting',
  stopped: 'stopped',
};

/** Pure: "health: broker up (restarted 2×), orchestrator up, …", printed whenever a service dies or comes back. */
export function healthLine(services: ServiceHealth[]): string {
  const parts = services.map(
    (s) => `${s.name} ${WORDS[s.state]}${s.restarts > 0 ? ` (restarted ${s.restarts}×)` : ''}`,
  );
  return `health: ${parts.join(', ')}`;
}

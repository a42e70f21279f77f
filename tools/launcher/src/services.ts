// The four services `npm start` runs, in start order (the broker first: the others connect to it).
export const SERVICES = [
  { name: 'broker', entry: 'apps/broker/src/main.js' },
  { name: 'orchestrator', entry: 'apps/orchestrator/src/main.js' },
  { name: 'voice-worker', entry: 'apps/voice-worker/src/main.js' },
  { name: 'admin-api', entry: 'apps/admin-api/src/main.js' },
] as const;
export type ServiceName = (typeof SERVICES)[number]['name'];

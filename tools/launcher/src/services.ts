// The four services `npm start` runs, in start order (the broker first: the others connect to it).
export const SERVICES = [
  {
    name: 'broker',
    entry: 'apps/broker/src/main.js',
    /** Its replica id: kept across restarts, so a restarted broker closes its own earlier connection rows. */
    identityVariable: 'BROKER_ID',
    /** It budgets device connections against its descriptor limit: the launcher says what that limit is. */
    reportOpenFiles: true,
  },
  {
    name: 'orchestrator',
    entry: 'apps/orchestrator/src/main.js',
    identityVariable: 'REPLICA_ID',
    reportOpenFiles: false,
  },
  {
    name: 'voice-worker',
    entry: 'apps/voice-worker/src/main.js',
    /** Kept across restarts: a restarted worker answers the turns it held when it died. */
    identityVariable: 'WORKER_ID',
    reportOpenFiles: false,
  },
  {
    name: 'admin-api',
    entry: 'apps/admin-api/src/main.js',
    identityVariable: undefined,
    reportOpenFiles: false,
  },
] as const;
export type ServiceName = (typeof SERVICES)[number]['name'];
export type ServiceSpec = (typeof SERVICES)[number];

// The variable that sets each port a service reports in its "listening" line.
const PORT_VARIABLES: Record<string, string> = {
  http: 'HTTP_PORT',
  mqtt: 'MQTT_PORT',
  ws: 'MQTT_WS_PORT',
  tls: 'MQTT_TLS_PORT',
  udp: 'UDP_PORT',
  link: 'LINK_PORT',
};

/**
 * Pure: the environment that makes a restarted service listen where it listened before (devices, the other
 * services and the banner know those ports, and with `*_PORT=0` the first start took any free one).
 */
export function pinnedPorts(ports: Record<string, number>): Record<string, string> {
  const pinned: Record<string, string> = {};
  for (const [kind, port] of Object.entries(ports)) {
    const variable = PORT_VARIABLES[kind];
    if (!variable) throw new Error(`a service reported a "${kind}" port the launcher cannot pin`);
    pinned[variable] = String(port);
  }
  return pinned;
}

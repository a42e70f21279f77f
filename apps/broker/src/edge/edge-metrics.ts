import { Counter, Gauge, type Registry } from '@fleet/telemetry';

/** Every device-facing listener, as the edge's metrics label them. */
export const EDGE_LISTENERS = ['link', 'http', 'mqtt', 'mqtt_tls', 'mqtt_ws', 'udp'] as const;
export type EdgeListener = (typeof EDGE_LISTENERS)[number];

/** What the device edge counts about its sockets: errors survived, the connection budget, its refusals. */
export function createEdgeMetrics(registry: Registry) {
  const registers = [registry];
  const metrics = {
    socketErrors: new Counter({
      name: 'broker_socket_errors_total',
      help: "Errors on device-facing sockets (a peer's reset, a protocol violation, a TLS failure), each counted and survived, by listener and code",
      labelNames: ['listener', 'code'],
      registers,
    }),
    edgePending: new Gauge({
      name: 'broker_edge_pending_connections',
      help: 'Device-facing connections held before authentication (the device HTTP: every connection), by listener',
      labelNames: ['listener'],
      registers,
    }),
    edgeOpen: new Gauge({
      name: 'broker_edge_open_connections',
      help: 'Device-facing connections held, authenticated or not, by listener',
      labelNames: ['listener'],
      registers,
    }),
    edgeRefusals: new Counter({
      name: 'broker_edge_refusals_total',
      help: 'Device-facing connections cut by the connection budget, by listener and reason: per_address and open_files at accept, evicted (the longest pending, to make room), handshake_timeout',
      labelNames: ['listener', 'reason'],
      registers,
    }),
    edgeLimits: new Gauge({
      name: 'broker_edge_limits',
      help: 'The connection budget in force: pending_total, pending_per_address, open_connections, and the open_files limit it was derived from',
      labelNames: ['limit'],
      registers,
    }),
  };
  for (const listener of EDGE_LISTENERS) {
    if (listener === 'udp') continue;
    metrics.edgePending.set({ listener }, 0);
    metrics.edgeOpen.set({ listener }, 0);
  }
  return metrics;
}
export type EdgeMetrics = ReturnType<typeof createEdgeMetrics>;

import { Counter, type Registry } from '@fleet/telemetry';

/** What only the ListenAI link counts; connects, presence, uplinks and bad input share the broker's metrics. */
export function createLinkMetrics(registry: Registry) {
  return {
    refusals: new Counter({
      name: 'broker_link_refusals_total',
      help: 'ListenAI links refused when they opened, by close reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    downlinks: new Counter({
      name: 'broker_link_downlinks_total',
      help: 'Messages for ListenAI devices by outcome (sent on the link, or dropped as not ListenAI MCP)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}
export type LinkMetrics = ReturnType<typeof createLinkMetrics>;

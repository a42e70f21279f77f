import { Counter, Gauge, Histogram, type Registry } from '@fleet/telemetry';

export function createOrchestratorMetrics(registry: Registry) {
  const registers = [registry];
  return {
    ownedPartitions: new Gauge({
      name: 'orchestrator_owned_partitions',
      help: 'Call partitions this replica owns',
      registers,
    }),
    knownDevices: new Gauge({
      name: 'orchestrator_devices',
      help: 'Devices of owned partitions, by presence',
      labelNames: ['state'],
      registers,
    }),
    calls: new Counter({
      name: 'orchestrator_calls_total',
      help: 'Calls sealed, by verdict, tool and origin',
      labelNames: ['verdict', 'tool', 'origin'],
      registers,
    }),
    callLatency: new Histogram({
      name: 'orchestrator_call_seconds',
      help: 'From the call row to its sealed verdict',
      labelNames: ['verdict'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
      registers,
    }),
    evidenceCommit: new Histogram({
      name: 'orchestrator_evidence_commit_seconds',
      help: 'One group commit of evidence rows and call states',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
      registers,
    }),
    mcpRequests: new Counter({
      name: 'orchestrator_mcp_requests_total',
      help: 'Requests sent to devices',
      labelNames: ['method'],
      registers,
    }),
    unpairedReplies: new Counter({
      name: 'orchestrator_unpaired_replies_total',
      help: 'Device replies no request waited for',
      labelNames: ['reason'],
      registers,
    }),
    takenOverReplies: new Counter({
      name: 'orchestrator_taken_over_replies_total',
      help: 'Replies a dead replica sent for and this one paired after taking its partition over',
      registers,
    }),
    malformedInput: new Counter({
      name: 'orchestrator_malformed_input_total',
      help: 'Device input that could not be read, by kind',
      labelNames: ['kind'],
      registers,
    }),
    discoveries: new Counter({
      name: 'orchestrator_discoveries_total',
      help: 'Discoveries by outcome (unchanged, new_version, failed)',
      labelNames: ['outcome'],
      registers,
    }),
    flaggedToolNames: new Counter({
      name: 'orchestrator_flagged_tool_names_total',
      help: "Tools in newly discovered catalog versions whose name discovery flagged (outside MCP's names, bidi controls, invisible characters), by flag",
      labelNames: ['flag'],
      registers,
    }),
  };
}
export type OrchestratorMetrics = ReturnType<typeof createOrchestratorMetrics>;

/**
 * Calls not yet sealed in the partitions this replica owns, by state: the orchestrator's real queue (the BullMQ
 * jobs only wake it). Read from Postgres when scraped.
 */
export function registerQueueDepth(
  registry: Registry,
  pendingByState: () => Promise<Record<string, number>>,
): void {
  new Gauge({
    name: 'orchestrator_queue_depth',
    help: 'Calls waiting or in flight in the owned partitions, by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const counts = await pendingByState();
      this.reset();
      for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
    },
  });
}

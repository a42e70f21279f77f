import { Counter, Gauge, type Registry } from '@fleet/telemetry';
import { createEdgeMetrics } from './edge/edge-metrics';

/** Everything the broker counts. Labels are small closed sets (reasons, kinds), never device ids. */
export function createBrokerMetrics(registry: Registry) {
  const registers = [registry];
  return {
    ...createEdgeMetrics(registry),
    connectedDevices: new Gauge({
      name: 'broker_connected_devices',
      help: 'Devices online on this replica',
      registers,
    }),
    connectedServices: new Gauge({
      name: 'broker_connected_services',
      help: 'Service clients on this replica',
      registers,
    }),
    connects: new Counter({
      name: 'broker_connects_total',
      help: 'Accepted MQTT connections',
      labelNames: ['kind'],
      registers,
    }),
    replicaConnectionsClosed: new Counter({
      name: 'broker_replica_connections_closed_total',
      help: 'Connection rows closed for a replica that is gone: broker_lost (its heartbeat ran out), broker_restarted (this replica after a restart)',
      labelNames: ['reason'],
      registers,
    }),
    disconnects: new Counter({
      name: 'broker_disconnects_total',
      help: 'Closed device connections by reason',
      labelNames: ['reason'],
      registers,
    }),
    upgradeRegressionChecks: new Counter({
      name: 'broker_upgrade_regression_checks_total',
      help: 'Check-in versions held against verified upgrades (DESIGN §5), by outcome: recorded is a new regression',
      labelNames: ['outcome'],
      registers,
    }),
    authFailures: new Counter({
      name: 'broker_auth_failures_total',
      help: 'Refused MQTT CONNECTs by reason',
      labelNames: ['reason'],
      registers,
    }),
    accessRefusals: new Counter({
      name: 'broker_access_refusals_total',
      help: 'Refused publishes and subscribes by reason',
      labelNames: ['action', 'reason'],
      registers,
    }),
    malformedInput: new Counter({
      name: 'broker_malformed_input_total',
      help: 'Bad input from clients by kind',
      labelNames: ['kind'],
      registers,
    }),
    uplinks: new Counter({
      name: 'broker_uplinks_total',
      help: 'Device messages wrapped, by kind',
      labelNames: ['kind'],
      registers,
    }),
    otaCheckIns: new Counter({
      name: 'broker_ota_check_ins_total',
      help: 'OTA check-ins by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    activations: new Counter({
      name: 'broker_activations_total',
      help: 'POST /xiaozhi/ota/activate by outcome (proved, bound, or why it was refused)',
      labelNames: ['outcome'],
      registers,
    }),
    activationChallenges: new Counter({
      name: 'broker_activation_challenges_total',
      help: "Activation v2 challenges: issued, renewed (the same Client-Id asked again), displaced (another Client-Id's dropped for the per-MAC cap), rate_limited",
      labelNames: ['outcome'],
      registers,
    }),
    takeovers: new Counter({
      name: 'broker_takeovers_total',
      help: "Older connections of a device closed by a newer one's CONNECT, on this replica or another",
      labelNames: ['scope'],
      registers,
    }),
    firmwareDownloads: new Counter({
      name: 'broker_firmware_downloads_total',
      help: 'Firmware image requests by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    internalErrors: new Counter({
      name: 'broker_internal_errors_total',
      help: 'Errors inside aedes and its Redis emitter, which the broker survives',
      labelNames: ['source'],
      registers,
    }),
    strandedWills: new Counter({
      name: 'broker_stranded_wills_total',
      help: "Wills a gone broker left in Redis, each deleted, by outcome: published (as its device's uplink), failed, or why its device's rights refused it",
      labelNames: ['outcome'],
      registers,
    }),
    voiceSessions: new Gauge({
      name: 'broker_voice_sessions',
      help: 'Open UDP voice sessions on this replica',
      registers,
    }),
    udpPackets: new Counter({
      name: 'broker_udp_packets_total',
      help: 'UDP audio packets by direction and outcome',
      labelNames: ['direction', 'outcome'],
      registers,
    }),
  };
}
export type BrokerMetrics = ReturnType<typeof createBrokerMetrics>;

import type { MqttClient } from 'mqtt';
import type { PlatformEventBus, WebhookNotifier } from '@fleet/platform-client';
import type { Logger } from '@fleet/telemetry';
import type { OrchestratorConfig } from '../config';
import type { DeviceRegistry } from '../devices/device-registry';
import type { McpLink } from '../mcp/mcp-link';
import type { OrchestratorMetrics } from '../orchestrator-metrics';
import type { CallRepository } from './call-repository';
import type { CallWrites } from './call-writes';

/** What the call pipeline's steps share. */
export interface PipelineContext {
  config: OrchestratorConfig;
  devices: DeviceRegistry;
  calls: CallRepository;
  writes: CallWrites;
  link: McpLink;
  mqtt: MqttClient;
  events: PlatformEventBus;
  webhooks: WebhookNotifier;
  metrics: OrchestratorMetrics;
  logger: Logger;
}

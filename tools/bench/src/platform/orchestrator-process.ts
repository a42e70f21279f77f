import { benchSealEnv } from './bench-seal-key';
import { startServiceProcess, type ServiceProcess } from './service-process';

export interface OrchestratorProcessOptions {
  distDir: string;
  path: string;
  databaseUrl: string;
  redisUrl: string;
  mqttUrl: string;
  /** The orchestrator's broker password (the broker knows it as SERVICE_CREDENTIALS `orchestrator:<secret>`). */
  mqttPassword: string;
  /** The broker's device HTTP, where firmware images are downloaded from. */
  firmwareBaseUrl: string;
  outDir: string;
  profile?: 'cpu' | 'perf';
  /** More Node options for the orchestrator (e.g. the young generation's size). */
  nodeOptions?: string[];
  /** More settings (e.g. CAMPAIGN_TICK_MS); they win over the defaults here. */
  env?: Record<string, string>;
}

export interface OrchestratorProcess extends ServiceProcess {
  metricsUrl: string;
}

/** One orchestrator replica from dist/, as production runs it; it owns every partition (the only replica). */
export async function startOrchestratorProcess(o: OrchestratorProcessOptions): Promise<OrchestratorProcess> {
  const service = await startServiceProcess({
    app: 'orchestrator',
    distDir: o.distDir,
    outDir: o.outDir,
    ...(o.profile ? { profile: o.profile } : {}),
    ...(o.nodeOptions ? { nodeOptions: o.nodeOptions } : {}),
    env: {
      PATH: o.path,
      DATABASE_URL: o.databaseUrl,
      REDIS_URL: o.redisUrl,
      MQTT_URL: o.mqttUrl,
      MQTT_PASSWORD: o.mqttPassword,
      FIRMWARE_BASE_URL: o.firmwareBaseUrl,
      BIND_HOST: '127.0.0.1',
      HTTP_PORT: '0',
      REPLICA_ID: `bench-orchestrator-${process.pid}`,
      ...benchSealEnv.orchestrator,
      ...o.env,
    },
  });
  return { ...service, metricsUrl: `http://127.0.0.1:${service.ports['http']}/metrics` };
}

import { createFleet, FAST_TIMINGS, type Fleet, type FleetOptions } from '@fleet/device-sim';
import { startServiceProcess, waitFor, type ServiceProcess } from '@fleet/testing';
import { startHarness, type Harness } from './harness';

const SIGNING_KEY = 'admin-e2e-signing-key-0123456789';
const SECRET = 'admin-e2e-service-secret-0123456';
/** Seals imported eFuse keys: the API seals with it, the broker opens with it. */
export const WRAPPING_KEY = 'a5'.repeat(32);

export interface Platform {
  h: Harness;
  broker: ServiceProcess;
  brokerUrl: string;
  startOrchestrator(replicaId: string): Promise<ServiceProcess>;
  /** A fleet of simulated devices booted through the broker and discovered by the orchestrator. */
  fleet(options: Partial<FleetOptions> & { count: number; macPrefix: string }): Promise<Fleet>;
  close(): Promise<void>;
}

/** The whole platform but the voice worker: the API in-process, the broker and orchestrators as processes. */
export async function startPlatform(apiEnv: Record<string, string> = {}): Promise<Platform> {
  const h = await startHarness({
    WEBHOOK_WORKER: 'true',
    EFUSE_WRAPPING_KEYS: WRAPPING_KEY,
    // An orchestrator runs here: a user-only call is answered once its pre-flight has spoken (DESIGN §4).
    CALL_PREFLIGHT_WAIT_MS: '5000',
    ...apiEnv,
  });
  const broker = await startServiceProcess('broker', {
    DATABASE_URL: h.db.url,
    REDIS_URL: h.redis.url,
    QUEUE_PREFIX: h.queuePrefix,
    BIND_HOST: '127.0.0.1',
    PUBLIC_HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_WS_PORT: '0',
    HTTP_PORT: '0',
    UDP_PORT: '0',
    LINK_PORT: '0',
    DEVICE_SIGNING_KEYS: SIGNING_KEY,
    EFUSE_WRAPPING_KEYS: WRAPPING_KEY,
    SERVICE_CREDENTIALS: `orchestrator:${SECRET}`,
    DEVICE_MESSAGE_RATE: '1000',
  });
  const brokerUrl = `http://127.0.0.1:${broker.ports['http']}`;
  const processes: ServiceProcess[] = [];
  const fleets: Fleet[] = [];
  return {
    h,
    broker,
    brokerUrl,
    async startOrchestrator(replicaId) {
      const child = await startServiceProcess('orchestrator', {
        DATABASE_URL: h.db.url,
        REDIS_URL: h.redis.url,
        QUEUE_PREFIX: h.queuePrefix,
        MQTT_URL: `mqtt://127.0.0.1:${broker.ports['mqtt']}`,
        MQTT_PASSWORD: SECRET,
        BIND_HOST: '127.0.0.1',
        HTTP_PORT: '0',
        REPLICA_ID: replicaId,
        LEASE_RENEW_MS: '200',
        LEASE_TTL_MS: '1500',
        SWEEP_INTERVAL_MS: '200',
        SWEEP_IDLE_MS: '1000',
        CAMPAIGN_TICK_MS: '200',
        REBOOT_VERIFY_MS: '15000',
        UPGRADE_VERIFY_MS: '15000',
        FIRMWARE_BASE_URL: brokerUrl,
      });
      processes.push(child);
      return child;
    },
    async fleet(options) {
      const fleet = createFleet({
        otaUrl: `${brokerUrl}/xiaozhi/ota/`,
        timings: FAST_TIMINGS,
        relayTools: 0,
        bootsPerSecond: 100,
        recordLimit: 200,
        ...options,
      });
      fleets.push(fleet);
      await fleet.start();
      const macs = fleet.devices.map((d) => d.mac);
      await waitFor(
        async () => {
          const { rows } = await h.owner.query(
            'SELECT count(*)::int AS n FROM device WHERE id = ANY($1) AND catalog_version_id IS NOT NULL',
            [macs],
          );
          return rows[0].n === macs.length;
        },
        { what: `discovery of ${macs.length} devices`, timeoutMs: 60_000, intervalMs: 200 },
      );
      return fleet;
    },
    async close() {
      await Promise.all(fleets.map((f) => f.stop()));
      for (const child of processes) await child.stop('SIGKILL');
      await broker.stop();
      await h.stop();
    },
  };
}

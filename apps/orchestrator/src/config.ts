import { hostname } from 'node:os';
import { z } from 'zod';
import {
  commonEnv,
  databaseEnv,
  envInt,
  envPort,
  loadConfig,
  redisEnv,
  resolveServicePassword,
  resolveSealSigningKey,
  sealSigningEnv,
  serviceMqttEnv,
  tracingEnv,
} from '@fleet/config';

const orderingRuleSchema = z.strictObject({
  tool: z.string().min(1),
  requires: z.string().min(1),
  maxAgeMs: z.int().min(0),
  action: z.enum(['run_first', 'refuse']).default('run_first'),
});

// The only place the orchestrator reads process.env.
const schema = z.object({
  ...commonEnv,
  ...databaseEnv,
  ...redisEnv,
  ...serviceMqttEnv,
  ...tracingEnv,
  ...sealSigningEnv,
  BIND_HOST: z.string().default('0.0.0.0'),
  HTTP_PORT: envPort(8082),
  REPLICA_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default(`${hostname()}-${process.pid}`),
  /** A partition's owner renews its lease this often; a lease not renewed for LEASE_TTL_MS is free to take. */
  LEASE_RENEW_MS: envInt(2_000, { min: 100 }),
  LEASE_TTL_MS: envInt(10_000, { min: 500 }),
  /** Calls a partition works on at once (one per device at a time, whatever this says). */
  /** Where `self.camera.take_photo` posts its photo (DESIGN §2: the voice worker's vision endpoint). */
  VISION_URL: z.url().optional(),
  VISION_TOKEN: z.string().optional(),
  DISCOVERY_TIMEOUT_MS: envInt(10_000, { min: 100 }),
  /** A reboot is verified when the device checks in and reconnects within this time. */
  REBOOT_VERIFY_MS: envInt(120_000, { min: 1_000 }),
  /** How long an announcement's speech, once begun in a session, may take to be seen through. */
  ANNOUNCE_PLAYBACK_MAX_MS: envInt(120_000, { min: 1_000 }),
  /**
   * Announcements one device may be sent per ANNOUNCE_RATE_WINDOW_S: an announcement campaign spends the same
   * Redis budget as the admin API's route, so both services must be given the same two values.
   */
  ANNOUNCE_RATE_PER_DEVICE: envInt(10, { min: 1 }),
  ANNOUNCE_RATE_WINDOW_S: envInt(60, { min: 1, max: 24 * 3600 }),
  /** An upgrade (download, flash, reboot) is verified when the new version reports within this time. */
  UPGRADE_VERIFY_MS: envInt(600_000, { min: 1_000 }),
  /** How fresh a result must be for the rules derived from "you must call X first". */
  DERIVED_RULE_MAX_AGE_MS: envInt(60_000, { min: 0 }),
  /** Extra ordering rules, JSON: [{"tool":"B","requires":"A","maxAgeMs":60000,"action":"run_first"}]. */
  ORDERING_RULES: z
    .string()
    .default('[]')
    .transform((text, ctx) => {
      try {
        return z.array(orderingRuleSchema).parse(JSON.parse(text));
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `not a JSON list of rules: ${(err as Error).message}` });
        return z.NEVER;
      }
    }),
  /** The broker's public HTTP base, where firmware images are served (`/firmware/<sha256>.bin`). */
  FIRMWARE_BASE_URL: z.url().default('http://127.0.0.1:8081'),
  /**
   * Gone: per-model readbacks are tool profiles now (DESIGN §5), managed at run time. Still set, the start is
   * refused, saying how to import the list, rather than silently verifying less than the operator expects.
   */
  MODEL_READBACKS: retired('MODEL_READBACKS'),
  MODEL_READBACKS_FILE: retired('MODEL_READBACKS_FILE'),
  SWEEP_INTERVAL_MS: envInt(1_000, { min: 50 }),
  /** The longest the sweep sleeps when nothing it knows of is due sooner (lost wake-ups are found within it). */
  SWEEP_IDLE_MS: envInt(10_000, { min: 50 }),
  CAMPAIGN_TICK_MS: envInt(1_000, { min: 50 }),
  /** Campaign dispatches (device calls) per minute across the platform, all campaigns together (DESIGN §3). */
  CAMPAIGN_DISPATCHES_PER_MINUTE: envInt(10_000, { min: 1, max: 10_000 }),
  /** How often a reboot or upgrade held for a conversation looks again whether it ended (DESIGN §4 busy lock). */
  BUSY_RECHECK_MS: envInt(1_000, { min: 50 }),
});

export type OrchestratorConfig = Omit<
  z.infer<typeof schema>,
  'MQTT_PASSWORD' | 'MODEL_READBACKS' | 'MODEL_READBACKS_FILE' | 'SEAL_SIGNING_KEY'
> & { mqttPassword: string; sealSigningKey: string };
export type ConfiguredOrderingRule = z.infer<typeof orderingRuleSchema>;

function retired(variable: string) {
  return z
    .string()
    .optional()
    .refine((v) => v === undefined, {
      message:
        `${variable} is no longer read: readbacks are tool profiles now. Import the list once with ` +
        '`npm run db:import-readbacks -- <file.json>` (or PUT /api/v1/tool-profiles), then unset the variable',
    });
}

export function loadOrchestratorConfig(env: NodeJS.ProcessEnv = process.env): OrchestratorConfig {
  const {
    MQTT_PASSWORD,
    MODEL_READBACKS: _inline,
    MODEL_READBACKS_FILE: _file,
    SEAL_SIGNING_KEY,
    ...raw
  } = loadConfig(schema, env);
  return {
    ...raw,
    // DESIGN §6: the orchestrator alone holds the key its seals are signed with.
    sealSigningKey: resolveSealSigningKey(SEAL_SIGNING_KEY, raw.NODE_ENV),
    mqttPassword: resolveServicePassword('orchestrator', MQTT_PASSWORD, raw.NODE_ENV),
  };
}

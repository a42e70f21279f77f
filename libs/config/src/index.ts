export { loadConfig, ConfigError } from './load-config';
export { envBoolean, envInt, envList, envLogLevel, envNodeEnv, envPort, envUrl } from './env-types';
export {
  commonEnv,
  databaseEnv,
  redisEnv,
  DEFAULT_DATABASE_URL,
  DEFAULT_MIGRATION_DATABASE_URL,
  DEFAULT_REDIS_URL,
} from './common-env';
export {
  devSecretsPath,
  loadOrCreateAuditSigningKey,
  loadOrCreateDevSecrets,
  SERVICE_IDENTITIES,
  type DevSecrets,
  type ServiceIdentity,
} from './dev-secrets';
export { findWorkspaceRoot } from './workspace-root';
export { serviceMqttEnv, resolveServicePassword } from './service-mqtt-env';
export { efuseWrappingEnv, resolveEfuseWrappingKeys } from './efuse-wrapping-env';
export { tracingEnv, otlpExportEnabled } from './tracing-env';
export { auditSigningEnv, resolveAuditSigningKey } from './audit-signing-env';
export {
  sealKeysEnv,
  sealSigningEnv,
  resolveSealPublicKeys,
  resolveSealSigningKey,
} from './seal-signing-env';

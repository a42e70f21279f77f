// Injection tokens for what the composition root hands to Nest.
export const LOGGER = Symbol('Logger');
export const METRICS_REGISTRY = Symbol('MetricsRegistry');
export const PG_POOL = Symbol('PgPool');
export const REDIS = Symbol('Redis');

// aedes-persistence-redis ships no types; this is the part the broker uses.
declare module 'aedes-persistence-redis' {
  interface RedisPersistenceOptions {
    host?: string;
    port?: number;
    password?: string;
    db?: number;
    maxSessionDelivery?: number;
  }
  function persistenceRedis(options?: RedisPersistenceOptions): unknown;
  export default persistenceRedis;
}

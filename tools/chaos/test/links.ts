import { startTcpProxy, type TcpProxy } from '@fleet/testing';

export const SERVICES = ['broker', 'orchestrator', 'voice-worker', 'admin-api'] as const;
export type ServiceName = (typeof SERVICES)[number];
export type Dependency = 'postgres' | 'redis' | 'broker';

/** Which service reaches which dependency: the broker's MQTT only for the services that are MQTT clients. */
export const LINKS: readonly { service: ServiceName; dependency: Dependency }[] = SERVICES.flatMap(
  (service) => [
    { service, dependency: 'postgres' as const },
    { service, dependency: 'redis' as const },
    ...(service === 'orchestrator' || service === 'voice-worker'
      ? [{ service, dependency: 'broker' as const }]
      : []),
  ],
);

/**
 * One TCP proxy per service and dependency, so a case cuts one service's link (the orchestrator's to
 * Postgres) while the others keep theirs, as a network partition would.
 */
export class Links {
  private constructor(private readonly proxies: Map<string, TcpProxy>) {}

  static async start(targets: Record<Dependency, number>): Promise<Links> {
    const proxies = new Map<string, TcpProxy>();
    for (const { service, dependency } of LINKS) {
      proxies.set(`${service}/${dependency}`, await startTcpProxy(targets[dependency]));
    }
    return new Links(proxies);
  }

  port(service: ServiceName, dependency: Dependency): number {
    return this.get(service, dependency).port;
  }

  cut(service: ServiceName, dependency: Dependency): Promise<void> {
    return this.get(service, dependency).cut();
  }

  restore(service: ServiceName, dependency: Dependency): Promise<void> {
    return this.get(service, dependency).restore();
  }

  async close(): Promise<void> {
    await Promise.all([...this.proxies.values()].map((p) => p.close()));
  }

  private get(service: ServiceName, dependency: Dependency): TcpProxy {
    const proxy = this.proxies.get(`${service}/${dependency}`);
    if (!proxy) throw new Error(`${service} has no link to ${dependency}`);
    return proxy;
  }
}

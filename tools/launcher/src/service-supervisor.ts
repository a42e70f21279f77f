import { describeOpenFiles, openFilesLimitOf } from './open-files';
import { nextRestart, type RestartPolicy } from './restart-backoff';
import { describeExit, type ServiceExit, type ServiceProcess } from './service-process';
import { pinnedPorts, type ServiceSpec } from './services';

/** up: healthy since its last start; starting: started, not healthy yet; down: dead, waiting to be restarted. */
export type ServiceState = 'starting' | 'up' | 'down' | 'stopped';

export interface SupervisorDeps {
  /** Starts one process of the service with this environment on top of the launcher's. */
  spawn(extraEnv: Record<string, string>): ServiceProcess;
  /** Resolves once the service's /healthz answers 200 (or with the reason it did not in time). */
  waitHealthy(url: string): Promise<{ ok: boolean; detail: string }>;
  policy: RestartPolicy;
  log(line: string): void;
  /** Called whenever a restarted service is up again or dies again: the launcher prints the health then. */
  changed(): void;
}

/**
 * One service under `npm start`, as a Kubernetes liveness probe keeps one in production: once it has listened,
 * a death is logged and followed by a restart after a backoff (the other services keep serving meanwhile), on
 * the ports and with the replica id it had, so devices and the other services find it where it was.
 */
export class ServiceSupervisor {
  state: ServiceState = 'starting';
  restarts = 0;
  ports: Record<string, number> = {};
  private current?: ServiceProcess;
  private pinned: Record<string, string> = {};
  private streak = 0;
  private healthySince?: number;
  private timer?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    readonly spec: ServiceSpec,
    private readonly identity: Record<string, string>,
    private readonly deps: SupervisorDeps,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.current?.child.pid;
  }

  /** The first start: resolves with the ports; rejects with how it ended when it exits before listening. */
  async start(): Promise<Record<string, number>> {
    const running = this.launch();
    const first = await Promise.race([
      running.ports.then((ports) => ({ ports })),
      running.exited.then((exit) => ({ exit })),
    ]);
    if ('exit' in first)
      throw new Error(`${this.name} exited (${describeExit(first.exit)}) before it listened`);
    this.ports = first.ports;
    this.pinned = pinnedPorts(first.ports);
    this.reportListening(running);
    void running.exited.then((exit) => this.died(exit));
    return first.ports;
  }

  /** The first start's health, as `waitHealthy` says it. */
  async firstHealth(): Promise<{ ok: boolean; detail: string }> {
    const health = await this.deps.waitHealthy(this.healthUrl());
    if (health.ok) this.markUp();
    return health;
  }

  /** Ctrl-C: no more restarts; SIGTERM to the running process and wait for it. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const current = this.current;
    this.state = 'stopped';
    if (!current || current.child.exitCode !== null || current.child.signalCode !== null) return;
    current.child.kill('SIGTERM');
    await current.exited;
  }

  private launch(): ServiceProcess {
    this.state = 'starting';
    this.healthySince = undefined;
    const running = this.deps.spawn({ ...this.identity, ...this.pinned });
    this.current = running;
    return running;
  }

  /** Once it listens (node has set its limits by then): its pid, and its descriptor limit where that matters. */
  private reportListening(running: ServiceProcess): void {
    const pid = running.child.pid;
    if (!this.spec.reportOpenFiles || !pid) return;
    this.deps.log(`${this.name} started (pid ${pid}${describeOpenFiles(openFilesLimitOf(pid))})`);
  }

  private died(exit: ServiceExit): void {
    if (this.stopping) return;
    this.state = 'down';
    const healthyFor = this.healthySince === undefined ? 0 : Date.now() - this.healthySince;
    const next = nextRestart(this.deps.policy, this.streak, healthyFor);
    this.streak = next.streak;
    this.deps.log(
      `${this.name} exited (${describeExit(exit)}); restarting it in ${(next.delayMs / 1000).toFixed(1)} s ` +
        `(restart ${this.restarts + 1}); the other services keep running`,
    );
    this.deps.changed();
    const diedAt = Date.now();
    this.timer = setTimeout(() => void this.restart(diedAt), next.delayMs);
  }

  private async restart(diedAt: number): Promise<void> {
    if (this.stopping) return;
    this.restarts += 1;
    const running = this.launch();
    void running.exited.then((exit) => this.died(exit));
    const listening = await Promise.race([running.ports, running.exited.then(() => undefined)]);
    if (!listening || this.stopping) return; // died again before it listened: died() has it
    this.reportListening(running);
    const health = await Promise.race([
      this.deps.waitHealthy(this.healthUrl()),
      running.exited.then(() => undefined),
    ]);
    if (!health || this.stopping || this.current !== running) return;
    const after = ((Date.now() - diedAt) / 1000).toFixed(1);
    if (health.ok) {
      this.markUp();
      this.deps.log(`${this.name} is back: healthy ${after} s after it died (restart ${this.restarts})`);
    } else {
      this.deps.log(`${this.name} restarted but is not healthy yet: ${health.detail}`);
    }
    this.deps.changed();
  }

  private markUp(): void {
    this.state = 'up';
    this.healthySince = Date.now();
  }

  private healthUrl(): string {
    return `http://127.0.0.1:${this.ports['http']}/healthz`;
  }
}

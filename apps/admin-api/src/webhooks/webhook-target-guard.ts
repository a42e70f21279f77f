import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { Counter, type Registry } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { METRICS_REGISTRY } from '../infra/tokens';
import { ipLiteralOf, WebhookTargetPolicy, type Refusal, type RefusedTarget } from './webhook-target-policy';

export class TargetRefusedError extends Error {
  readonly reason: RefusedTarget;

  constructor(
    readonly address: string,
    refusal: Refusal,
  ) {
    super(
      `target refused: ${address} is a ${refusal.reason} address${refusal.via ? ` (${refusal.via})` : ''} ` +
        '(WEBHOOK_ALLOWED_TARGETS does not allow it)',
    );
    this.name = 'TargetRefusedError';
    this.reason = refusal.reason;
  }
}

type When = 'create' | 'update' | 'delivery';

/**
 * Webhooks reach receivers, never the platform's own host or network: a URL is checked when it is set (its IP,
 * or what its name resolves to), and again at every delivery, on the addresses the connection is made to (the
 * resolver answers at that moment, so a name that changed to a private address since is caught). Counted.
 */
@Injectable()
export class WebhookTargetGuard {
  private readonly policy: WebhookTargetPolicy;
  private readonly refused: Counter;

  constructor(
    @Inject(ADMIN_API_CONFIG) config: AdminApiConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.policy = new WebhookTargetPolicy(config.WEBHOOK_ALLOWED_TARGETS);
    this.refused = new Counter({
      name: 'admin_api_webhook_targets_refused_total',
      help: 'Webhook URLs refused for leading to a loopback, private or link-local address, by when and why',
      labelNames: ['when', 'reason'],
      registers: [registry],
    });
  }

  /** When a URL is set: refused with a 400 naming the field if it leads somewhere it may not. */
  async checkUrl(url: string, when: 'create' | 'update'): Promise<void> {
    const parsed = new URL(url);
    const literal = ipLiteralOf(parsed);
    // A name that does not resolve now may later: it is checked again at each delivery.
    const addresses = literal ? [literal] : await resolveAll(parsed.hostname);
    for (const address of addresses) {
      const refusal = this.policy.judge(address);
      if (!refusal) continue;
      this.count(when, refusal.reason);
      const what = `a ${refusal.reason} address${refusal.via ? ` (${refusal.via})` : ''}`;
      const message = `leads to ${address}, ${what}; webhooks may reach it only if WEBHOOK_ALLOWED_TARGETS allows it`;
      throw new ApiError(400, 'webhook_target_refused', `body.url: ${message}`, [
        { field: 'body.url', message },
      ]);
    }
  }

  /** At delivery, for an IP literal URL (a connection to it resolves nothing): the refusal, if any. */
  literalRefusal(url: URL): TargetRefusedError | undefined {
    const literal = ipLiteralOf(url);
    const refusal = literal ? this.policy.judge(literal) : undefined;
    if (!literal || !refusal) return undefined;
    this.count('delivery', refusal.reason);
    return new TargetRefusedError(literal, refusal);
  }

  /** The resolver a delivery connects through: it refuses a name with any address the policy refuses. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.map((a) => [a, this.policy.judge(a.address)] as const).find(([, r]) => r);
      if (bad) {
        this.count('delivery', bad[1]!.reason);
        return callback(new TargetRefusedError(bad[0].address, bad[1]!), '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };

  private count(when: When, reason: RefusedTarget): void {
    this.refused.inc({ when, reason });
  }
}

async function resolveAll(hostname: string): Promise<string[]> {
  try {
    return (await dns.lookup(hostname, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

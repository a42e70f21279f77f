import { TokenBucket } from 'limiter';

/** A device's publish budget: `rate` per second on average, bursts of twice that. */
export class PublishRateLimits {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly ratePerSecond: number) {}

  allow(connectionId: string): boolean {
    let bucket = this.buckets.get(connectionId);
    if (!bucket) {
      bucket = new TokenBucket({
        bucketSize: this.ratePerSecond * 2,
        tokensPerInterval: this.ratePerSecond,
        interval: 'second',
      });
      bucket.content = bucket.bucketSize;
      this.buckets.set(connectionId, bucket);
    }
    return bucket.tryRemoveTokens(1);
  }

  forget(connectionId: string): void {
    this.buckets.delete(connectionId);
  }
}

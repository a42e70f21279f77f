import { Injectable } from '@nestjs/common';
import { CredentialChanges } from './credential-changes-adapter';
import { CredentialsRepository, type KeyOwner, type SessionOwner } from './credentials.repository';

// The repository records a key's last use at most once a minute; this replica asks it no more often either.
const TOUCH_EVERY_MS = 60_000;

/**
 * The credential lookups of every request, remembered between requests (CredentialChanges keeps them honest).
 * Only what was found is remembered: an unknown prefix or token is read again each time. The secret of a key is
 * still checked on every request against the remembered hash, and a session is remembered no longer than it
 * lives.
 */
@Injectable()
export class CachedCredentials {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly changes: CredentialChanges,
  ) {}

  async keyByPrefix(prefix: string): Promise<KeyOwner | undefined> {
    const cacheKey = `key:${prefix}`;
    const cached = this.changes.cache.get(cacheKey);
    if (cached?.kind === 'key') return cached.owner;
    const generation = this.changes.cache.begin();
    const owner = await this.credentials.keyByPrefix(prefix);
    if (owner) this.changes.cache.set(cacheKey, { kind: 'key', owner }, generation);
    return owner;
  }

  async liveSession(tokenHash: string): Promise<SessionOwner | undefined> {
    const cacheKey = `session:${tokenHash}`;
    const cached = this.changes.cache.get(cacheKey);
    if (cached?.kind === 'session' && cached.owner.expiresAt.getTime() > Date.now()) return cached.owner;
    const generation = this.changes.cache.begin();
    const owner = await this.credentials.liveSession(tokenHash);
    if (owner) {
      const ttlMs = owner.expiresAt.getTime() - Date.now();
      this.changes.cache.set(cacheKey, { kind: 'session', owner }, generation, ttlMs);
    }
    return owner;
  }

  /** Records a key's use (best effort) unless this replica did so within the last minute. */
  touchKey(keyId: string): void {
    const now = Date.now();
    if (now - (this.touched.get(keyId) ?? 0) < TOUCH_EVERY_MS) return;
    this.touched.set(keyId, now);
    if (this.touched.size > 10_000) this.touched.clear();
    void this.credentials.touchKey(keyId).catch(() => undefined);
  }
}

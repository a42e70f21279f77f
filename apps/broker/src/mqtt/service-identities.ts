import { timingSafeEqual } from 'node:crypto';

/** The platform's own services, each with its own secret (one service cannot pose as another). */
export class ServiceIdentities {
  constructor(private readonly secrets: Map<string, string>) {}

  knows(username: string): boolean {
    return this.secrets.has(username);
  }

  /** The service name when username and password match one, else undefined. */
  authenticate(username: string | undefined, password: Buffer | undefined): string | undefined {
    if (!username || !password) return undefined;
    const secret = this.secrets.get(username);
    if (secret === undefined) return undefined;
    const expected = Buffer.from(secret);
    return expected.length === password.length && timingSafeEqual(expected, password) ? username : undefined;
  }
}

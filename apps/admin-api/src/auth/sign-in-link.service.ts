import { Inject, Injectable } from '@nestjs/common';
import { hashPassword } from '@fleet/auth';
import { SignInLinksRepository, type Pool } from '@fleet/db';
import type { RequestOrigin } from '../http/actor';
import { ApiError } from '../http/api-error';
import { PG_POOL } from '../infra/tokens';
import { OperatorsRepository } from '../operators/operators.repository';
import { AuthService, type SignedIn } from './auth.service';

// One answer for unknown, used and expired: the link says nothing about which it was.
const invalidLink = () =>
  new ApiError(401, 'invalid_sign_in_link', 'this sign-in link is unknown, used already or expired');

/**
 * The first admin's way in (the first `npm start` prints the link): the link's token, used once, sets the
 * person's password and signs them in. Ask an admin for a new link with `npm run db:create-admin`.
 */
@Injectable()
export class SignInLinkService {
  private readonly links: SignInLinksRepository;

  constructor(
    @Inject(PG_POOL) pool: Pool,
    private readonly operators: OperatorsRepository,
    private readonly auth: AuthService,
  ) {
    this.links = new SignInLinksRepository(pool);
  }

  async redeem(token: string, password: string, origin: RequestOrigin): Promise<SignedIn> {
    const operatorId = await this.links.redeem(token);
    if (!operatorId) throw invalidLink();
    const operator = await this.operators.byId(operatorId);
    if (!operator || operator.disabledAt) throw invalidLink();
    await this.operators.update(operatorId, { passwordHash: await hashPassword(password) });
    return this.auth.startSession(operator, origin);
  }
}

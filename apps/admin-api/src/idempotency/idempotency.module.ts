import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentRequests } from './idempotent-requests';

@Module({
  providers: [IdempotencyRepository, IdempotentRequests],
  exports: [IdempotencyRepository, IdempotentRequests],
})
export class IdempotencyModule {}

import { Global, Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentRequests } from './idempotent-requests';

// Global: every controller's module provides the request policy, which writes audit rows and replays answers.
@Global()
@Module({
  providers: [IdempotencyRepository, IdempotentRequests],
  exports: [IdempotencyRepository, IdempotentRequests],
})
export class IdempotencyModule {}

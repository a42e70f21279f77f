import { Global, Module } from '@nestjs/common';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

// Global: every controller's module provides the request policy, which writes audit rows and replays answers.
@Global()
@Module({ providers: [AuditService, AuditRepository], exports: [AuditService] })
export class AuditModule {}

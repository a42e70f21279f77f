import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuditModule } from '../audit/audit.module';
import { OperatorsModule } from '../operators/operators.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { CachedCredentials } from './cached-credentials';
import { CredentialChanges } from './credential-changes-adapter';
import { CredentialsRepository } from './credentials.repository';
import { DeviceScope } from './device-scope';
import { DeviceScopeRepository } from './device-scope.repository';
import { GroupScopeGuard } from './group-scope.guard';
import { LoginThrottle } from './login-throttle';
import { OidcClient } from './oidc-client';
import { OidcSignInService } from './oidc-sign-in.service';
import { SignInLinkService } from './sign-in-link.service';

@Module({
  imports: [OperatorsModule, AuditModule],
  controllers: [AuthController],
  providers: [
    AuthService,
    CachedCredentials,
    CredentialChanges,
    CredentialsRepository,
    LoginThrottle,
    OidcClient,
    OidcSignInService,
    SignInLinkService,
    DeviceScope,
    DeviceScopeRepository,
    { provide: APP_GUARD, useClass: AuthGuard },
    // After AuthGuard (global guards run in the order they are provided): it reads the actor AuthGuard found.
    { provide: APP_GUARD, useClass: GroupScopeGuard },
  ],
  exports: [AuthService, CredentialChanges, DeviceScope],
})
export class AuthModule {}

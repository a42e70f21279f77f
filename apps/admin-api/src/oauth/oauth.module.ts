import { Module } from '@nestjs/common';
import { OperatorsModule } from '../operators/operators.module';
import { McpAccessTokens } from './mcp-access-tokens';
import { ProtectedResource } from './protected-resource';

/** `/mcp` as an OAuth 2.1 resource server, beside the API's own keys. */
@Module({
  imports: [OperatorsModule],
  providers: [McpAccessTokens, ProtectedResource],
  exports: [McpAccessTokens, ProtectedResource],
})
export class OAuthModule {}

import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { CallsModule } from '../calls/calls.module';
import { DeviceToolsModule } from '../device-tools/device-tools.module';
import { DevicesModule } from '../devices/devices.module';
import { EventsModule } from '../events/events.module';
import { OAuthModule } from '../oauth/oauth.module';
import { AgentCallsService } from './agent-calls.service';
import { CallProgressRepository } from './call-progress.repository';
import { CallTools } from './call-tools';
import { CallWatcher } from './call-watcher';
import { McpEndpoint } from './mcp-endpoint';
import { McpOrigins } from './mcp-origins';
import { McpSessions } from './mcp-sessions';
import { ReadTools } from './read-tools';
import { AgentCallsRepository } from './agent-calls.repository';
import { CallResults } from './call-results';
import { FleetTools } from './fleet-tools';
import { LegacyMcpServers } from './legacy-server';
import { ModernMcp } from './modern/modern-mcp';
import { CallTasks } from './waits/call-tasks';
import { RequestStates } from './waits/request-states';

/** The fleet as an MCP server for outside agents (`/mcp`), behind the same gate and evidence as everyone. */
@Module({
  imports: [
    AuthModule,
    AuditModule,
    CallsModule,
    DevicesModule,
    DeviceToolsModule,
    EventsModule,
    OAuthModule,
  ],
  providers: [
    McpEndpoint,
    McpOrigins,
    McpSessions,
    LegacyMcpServers,
    FleetTools,
    ModernMcp,
    CallTasks,
    CallResults,
    RequestStates,
    AgentCallsRepository,
    ReadTools,
    CallTools,
    AgentCallsService,
    CallWatcher,
    CallProgressRepository,
  ],
})
export class McpModule {}

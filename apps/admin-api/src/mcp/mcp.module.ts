import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { CallsModule } from '../calls/calls.module';
import { DeviceToolsModule } from '../device-tools/device-tools.module';
import { DevicesModule } from '../devices/devices.module';
import { EventsModule } from '../events/events.module';
import { AgentCallsService } from './agent-calls.service';
import { CallProgressRepository } from './call-progress.repository';
import { CallTools } from './call-tools';
import { CallWatcher } from './call-watcher';
import { FleetMcpServer } from './fleet-mcp-server';
import { McpEndpoint } from './mcp-endpoint';
import { McpOrigins } from './mcp-origins';
import { McpSessions } from './mcp-sessions';
import { ReadTools } from './read-tools';

/** The fleet as an MCP server for outside agents (`/mcp`), behind the same gate and evidence as everyone. */
@Module({
  imports: [AuthModule, AuditModule, CallsModule, DevicesModule, DeviceToolsModule, EventsModule],
  providers: [
    McpEndpoint,
    McpOrigins,
    McpSessions,
    FleetMcpServer,
    ReadTools,
    CallTools,
    AgentCallsService,
    CallWatcher,
    CallProgressRepository,
  ],
})
export class McpModule {}

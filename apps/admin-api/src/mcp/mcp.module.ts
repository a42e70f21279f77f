import { Module } from '@nestjs/common';
import { AnnouncementsModule } from '../announcements/announcements.module';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { CallsModule } from '../calls/calls.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { DeviceToolsModule } from '../device-tools/device-tools.module';
import { DevicesModule } from '../devices/devices.module';
import { EventsModule } from '../events/events.module';
import { OAuthModule } from '../oauth/oauth.module';
import { AgentCallsService } from './agent-calls.service';
import { AgentCampaignsRepository } from './agent-campaigns.repository';
import { AgentCampaignsService } from './agent-campaigns.service';
import { CallProgressRepository } from './call-progress.repository';
import { AnnouncementTools } from './announcement-tools';
import { CallTools } from './call-tools';
import { CallWatcher } from './call-watcher';
import { CampaignTools } from './campaign-tools';
import { McpEndpoint } from './mcp-endpoint';
import { McpOrigins } from './mcp-origins';
import { McpSessions } from './mcp-sessions';
import { ReadTools } from './read-tools';
import { AgentCallsRepository } from './agent-calls.repository';
import { CallResults } from './call-results';
import { FleetTools } from './fleet-tools';
import { LegacyMcpServers } from './legacy-server';
import { ModernMcp } from './modern/modern-mcp';
import { AgentTasks } from './waits/agent-tasks';
import { CallTasks } from './waits/call-tasks';
import { CampaignTasks } from './waits/campaign-tasks';
import { RequestStates } from './waits/request-states';

/** The fleet as an MCP server for outside agents (`/mcp`), behind the same gate and evidence as everyone. */
@Module({
  imports: [
    AnnouncementsModule,
    AuthModule,
    AuditModule,
    CallsModule,
    CampaignsModule,
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
    AgentTasks,
    CallTasks,
    CampaignTasks,
    CallResults,
    RequestStates,
    AgentCallsRepository,
    ReadTools,
    AnnouncementTools,
    CallTools,
    CampaignTools,
    AgentCallsService,
    AgentCampaignsService,
    AgentCampaignsRepository,
    CallWatcher,
    CallProgressRepository,
  ],
})
export class McpModule {}

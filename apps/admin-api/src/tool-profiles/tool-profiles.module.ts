import { Module } from '@nestjs/common';
import { ToolProfilesController } from './tool-profiles.controller';
import { ToolProfileStore } from './tool-profiles.repository';
import { ToolProfilesService } from './tool-profiles.service';

@Module({ controllers: [ToolProfilesController], providers: [ToolProfilesService, ToolProfileStore] })
export class ToolProfilesModule {}

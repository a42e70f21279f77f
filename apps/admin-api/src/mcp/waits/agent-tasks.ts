import { Injectable } from '@nestjs/common';
import type { AgentCaller } from '../agent-calls.service';
import { taskNotFound, type AgentTask } from './agent-task';
import { CallTasks } from './call-tasks';
import { CampaignTasks } from './campaign-tasks';

/**
 * An agent's tasks, whichever row each is: a call (its bare id) or a campaign (`campaign-<id>`). What every
 * revision's task methods use; a task that is not this agent's answers as none.
 */
@Injectable()
export class AgentTasks {
  constructor(
    private readonly calls: CallTasks,
    private readonly campaigns: CampaignTasks,
  ) {}

  find(caller: AgentCaller, taskId: string): Promise<AgentTask | undefined> {
    if (this.campaigns.owns(taskId)) return this.campaigns.find(caller, taskId);
    return this.calls.find(caller, taskId);
  }

  async mustFind(caller: AgentCaller, taskId: string): Promise<AgentTask> {
    const task = await this.find(caller, taskId);
    if (!task) throw taskNotFound(taskId);
    return task;
  }
}

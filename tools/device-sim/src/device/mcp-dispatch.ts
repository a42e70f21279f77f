import {
  deviceMessage,
  getItemCaseInsensitive,
  type CallStep,
  type CJsonValue,
  type ScheduledTask,
} from '@fleet/protocol';
import { upgradeFirmware } from '../firmware/upgrade';
import type { DeviceHost } from './device-host';
import { happens } from './faults';
import { rebootDevice } from './reboot';
import type { Runtime } from './runtime';
import { runToolCallback } from './tool-callbacks';

/**
 * McpServer::ParseMessage in the network task, everything after it on the main task (xiaozhi §3.1, §3.3):
 * an immediate reply is a queued send; a tool call is a queued callback whose scheduled work and reply are
 * appended behind whatever arrived meanwhile. The ordering alone is why self.reboot never answers and a failed
 * upgrade's "true" comes late.
 */
export function dispatchMcp(host: DeviceHost, rt: Runtime, payload: CJsonValue): void {
  const core = host.core();
  const step = core.receive(payload);
  switch (step.kind) {
    case 'silent':
      return;
    case 'reply': {
      if (step.vision) rt.vision = step.vision;
      const rewrite = host.faults.current.rewriteReply;
      const method = getItemCaseInsensitive(payload, 'method');
      const reply = rewrite
        ? rewrite(step.payload, method?.kind === 'string' ? method.value : '')
        : step.payload;
      rt.mainTask.schedule(() => sendMcpReply(host, rt, reply));
      return;
    }
    case 'call':
      rt.mainTask.schedule(() => runCall(host, rt, step));
      return;
  }
}

async function runCall(host: DeviceHost, rt: Runtime, step: CallStep): Promise<void> {
  const outcome = await runToolCallback(host, rt, step);
  const rewrite = host.faults.current.rewriteReply;
  for (const item of host.core().finishCall(step, outcome)) {
    const payload = item.kind === 'send' && rewrite ? rewrite(item.payload, 'tools/call') : undefined;
    if (item.kind === 'send') rt.mainTask.schedule(() => sendMcpReply(host, rt, payload ?? item.payload));
    else rt.mainTask.schedule(() => runScheduledTask(host, rt, item.task));
  }
}

async function runScheduledTask(host: DeviceHost, rt: Runtime, task: ScheduledTask): Promise<void> {
  switch (task.kind) {
    case 'reboot':
      // xiaozhi §3.4 #7: log, wait 1 s, Reboot(); the main task is blocked meanwhile.
      await rt.sleep(host.config.timings.rebootToolDelayMs);
      await rebootDevice(host, rt);
      return;
    case 'upgrade_firmware':
      await upgradeFirmware(host, rt, task.url);
      return;
    case 'board':
      return;
  }
}

/** Protocol::SendMcpMessage with the current session id, through the fault knobs. */
async function sendMcpReply(host: DeviceHost, rt: Runtime, payload: string): Promise<void> {
  const faults = host.faults.current;
  if (faults.replyDelayMs > 0) await rt.sleep(faults.replyDelayMs);
  if (happens(faults.dropReplies)) {
    host.stats.repliesDropped++;
    return;
  }
  const sent = happens(faults.brokenJson) ? breakJson(payload) : payload;
  const sessionId = rt.hasChannel ? rt.channel.sessionId : '';
  if (rt.mqtt?.sendText(deviceMessage.mcp(sessionId, sent))) {
    host.stats.repliesSent++;
    host.events.emit('reply', sent);
  }
}

/** A reply cut short: the id stays readable at the front, the rest is not JSON. */
function breakJson(payload: string): string {
  return payload.slice(0, Math.max(1, Math.floor(payload.length * 0.6)));
}

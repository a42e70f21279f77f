import { goodbyeApplies, readServerMessageAsDevice, type DeviceSideServerMessage } from '@fleet/protocol';
import { onTtsStart, onTtsStop } from '../voice/voice-control';
import type { DeviceHost } from './device-host';
import { dispatchMcp } from './mcp-dispatch';
import { rebootDevice } from './reboot';
import type { Runtime } from './runtime';

/**
 * Every PUBLISH the device receives, whatever its topic (xiaozhi §1.2): MqttProtocol's OnMessage, then the app's
 * OnIncomingJson (§2.2). What the app does is scheduled on the main task; hello, goodbye and mcp parsing happen
 * right here, in the network task, as in the firmware.
 */
export function handleIncoming(host: DeviceHost, rt: Runtime, topic: string, payload: Buffer): void {
  host.stats.messagesReceived++;
  const wire = { topic, text: payload.toString('utf8'), at: host.clock.now() };
  host.observed.received.push(wire);
  host.events.emit('message', wire);
  const read = readServerMessageAsDevice(payload);
  if (!read.ok && (read.error.kind === 'invalid_json' || read.error.kind === 'type_not_string')) return;
  // Any message with a string type counts as traffic for the channel's 120 s (xiaozhi §1.4).
  if (rt.hasChannel) rt.channel.touch();
  if (!read.ok) {
    host.events.emit('warning', read.error.message);
    return;
  }
  act(host, rt, read.value);
}

function act(host: DeviceHost, rt: Runtime, message: DeviceSideServerMessage): void {
  switch (message.type) {
    case 'hello':
      rt.channel.acceptHello(message.hello);
      return;
    case 'goodbye':
      // xiaozhi §1.5: only with the exact current session id; then UDP closes without a goodbye of our own.
      if (rt.hasChannel && goodbyeApplies(message, rt.channel.sessionId)) {
        rt.mainTask.schedule(() => rt.channel.close(false));
      }
      return;
    case 'mcp':
      dispatchMcp(host, rt, message.payload);
      return;
    case 'system':
      // xiaozhi §2.2: only `reboot` does anything, and nothing is answered.
      if (message.command === 'reboot') rt.mainTask.schedule(() => rebootDevice(host, rt));
      else host.events.emit('warning', `unsupported system command: ${message.command}`);
      return;
    case 'tts':
      recordVoice(host, message);
      if (message.state === 'start') rt.mainTask.schedule(() => onTtsStart(rt));
      else if (message.state === 'stop') rt.mainTask.schedule(() => onTtsStop(host, rt));
      return;
    case 'custom':
      if (host.config.voice.receiveCustomMessages) recordVoice(host, message);
      return;
    case 'stt':
    case 'llm':
    case 'alert':
      recordVoice(host, message);
      return;
  }
}

function recordVoice(host: DeviceHost, message: DeviceSideServerMessage): void {
  host.observed.voiceMessages.push(message);
  host.events.emit('voice-message', message);
}

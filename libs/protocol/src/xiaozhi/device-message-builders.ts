import { printCJson } from '../json/cjson-print';
import { cjson, type CJsonValue } from '../json/cjson-value';
import type { AudioParams } from './common-schemas';
import type { ListenMode } from './device-messages';

/** xiaozhi §1.4: what the device announces for its uplink. */
export const DEVICE_UPLINK_AUDIO: AudioParams = {
  format: 'opus',
  sample_rate: 16000,
  channels: 1,
  frame_duration: 60,
};

export interface DeviceHelloInput {
  /** CONFIG_USE_SERVER_AEC: adds `features.aec:true`. */
  readonly serverAec: boolean;
  readonly glyphPush: boolean;
  /** Sent only when glyphPush is true. */
  readonly textFont?: {
    readonly bundle: string;
    readonly charset: 'basic' | 'common';
    readonly size: number;
    readonly bpp: number;
  };
  readonly audioParams?: AudioParams;
}

/**
 * Device → server messages exactly as the firmware writes them (for the simulator). The hello is built with cJSON;
 * listen, abort, goodbye and the mcp envelope are string concatenations, so nothing in them is escaped.
 */
export const deviceMessage = {
  hello(input: DeviceHelloInput): string {
    const features: [string, CJsonValue][] = [
      ...(input.serverAec ? [['aec', cjson.bool(true)] as [string, CJsonValue]] : []),
      ['mcp', cjson.bool(true)],
      ['glyph_push', cjson.bool(input.glyphPush)],
    ];
    const members: [string, CJsonValue][] = [
      ['type', cjson.string('hello')],
      ['version', cjson.number(3)],
      ['transport', cjson.string('udp')],
      ['features', cjson.object(features)],
    ];
    if (input.glyphPush && input.textFont) {
      const f = input.textFont;
      members.push([
        'text_font',
        cjson.object([
          ['bundle', cjson.string(f.bundle)],
          ['charset', cjson.string(f.charset)],
          ['size', cjson.number(f.size)],
          ['bpp', cjson.number(f.bpp)],
        ]),
      ]);
    }
    const a = input.audioParams ?? DEVICE_UPLINK_AUDIO;
    members.push([
      'audio_params',
      cjson.object([
        ['format', cjson.string(a.format)],
        ['sample_rate', cjson.number(a.sample_rate)],
        ['channels', cjson.number(a.channels)],
        ['frame_duration', cjson.number(a.frame_duration)],
      ]),
    ]);
    return printCJson(cjson.object(members));
  },
  listenStart: (sessionId: string, mode: ListenMode): string =>
    `{"session_id":"${sessionId}","type":"listen","state":"start","mode":"${mode}"}`,
  listenStop: (sessionId: string): string => `{"session_id":"${sessionId}","type":"listen","state":"stop"}`,
  listenDetect: (sessionId: string, wakeWord: string): string =>
    `{"session_id":"${sessionId}","type":"listen","state":"detect","text":"${wakeWord}"}`,
  abort: (sessionId: string, reason?: 'wake_word_detected'): string =>
    `{"session_id":"${sessionId}","type":"abort"${reason ? `,"reason":"${reason}"` : ''}}`,
  goodbye: (sessionId: string): string => `{"session_id":"${sessionId}","type":"goodbye"}`,
  /** Protocol::SendMcpMessage: the payload (a firmware reply, possibly invalid JSON) spliced in as it is. */
  mcp: (sessionId: string, payload: string): string =>
    `{"session_id":"${sessionId}","type":"mcp","payload":${payload}}`,
};

import type { Language } from '../language';
import type { ToolCallRecord } from './tool-call-record';

type Words = Record<Language, string>;

const THEME_ZH: Record<string, string> = { dark: '深色', light: '浅色' };

/** "The volume is now 40": said only of a verified effect, with the value the device was asked to take. */
function verifiedSentence(call: ToolCallRecord): Words {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  switch (call.tool) {
    case 'self.audio_speaker.set_volume':
      return {
        en: `The volume is now ${String(args['volume'])}.`,
        zh: `音量已调到${String(args['volume'])}。`,
      };
    case 'self.screen.set_brightness':
      return {
        en: `The brightness is now ${String(args['brightness'])}.`,
        zh: `亮度已调到${String(args['brightness'])}。`,
      };
    case 'self.screen.set_theme': {
      const theme = String(args['theme']);
      return { en: `The theme is now ${theme}.`, zh: `已切换到${THEME_ZH[theme] ?? theme}主题。` };
    }
    default:
      return { en: 'Done, and the device confirmed it.', zh: '已完成，设备确认生效。' };
  }
}

function refusedSentence(reason: string): Words {
  if (reason.startsWith('user-only tool')) {
    return { en: 'I am not allowed to do that.', zh: '这个操作我无权执行。' };
  }
  if (reason.startsWith('the device has no tool')) {
    return { en: 'The device cannot do that.', zh: '这个设备做不到。' };
  }
  return { en: `That was refused: ${reason}.`, zh: `这个请求被拒绝了：${reason}。` };
}

/** One plain sentence per outcome (DESIGN §1), in the user's language. */
export function sentenceFor(language: Language, call: ToolCallRecord): string {
  const reason = (call.reason ?? '').replace(/[.。]$/, '');
  const words: Words = (() => {
    switch (call.verdict) {
      case 'verified':
        return verifiedSentence(call);
      case 'acknowledged':
        return {
          en: 'I asked the device, but could not confirm it.',
          zh: '我已经让设备去做了，但无法确认是否生效。',
        };
      case 'effect_mismatch':
        return {
          en: 'The device said it was done, but what I read back says otherwise.',
          zh: '设备说已经完成，但我读回的状态并不一致。',
        };
      case 'device_error':
        return { en: `The device reported an error: ${reason}.`, zh: `设备报告了错误：${reason}。` };
      case 'no_response':
        return {
          en: 'The device did not answer, so I do not know whether it worked.',
          zh: '设备没有回应，我不确定是否成功。',
        };
      case 'undelivered':
        return {
          en: 'I could not reach the device; nothing was changed.',
          zh: '联系不上设备，没有做任何更改。',
        };
      case 'rejected':
        return refusedSentence(reason);
      case 'invalid_arguments':
        return { en: `The device cannot accept that: ${reason}.`, zh: `设备不接受这个参数：${reason}。` };
      case 'expired':
        return { en: 'Nobody approved that in time.', zh: '没有人及时批准这个请求。' };
      case 'cancelled':
        return { en: 'That was cancelled before it was sent.', zh: '这个请求在发送前被取消了。' };
      case 'pending':
        return { en: 'I asked the device, but have no answer yet.', zh: '我已经发出请求，但还没有结果。' };
      case 'not_created':
      case 'invalid_json':
        return { en: `I could not ask the device: ${reason}.`, zh: `我没能向设备发出请求：${reason}。` };
    }
  })();
  return words[language];
}

import { LARGE_STEP, SMALL_STEP, type Intent, type Property } from './intent';
import { findChineseNumber } from './numbers';

const UP = /(大|高|响|增|加|亮)/;
const DOWN = /(小|低|轻|降|减|暗)/;

/** Chinese commands: 把音量调到四十, 声音小一点, 现在音量是多少, 切换到深色主题, 亮度调高一些. */
export function parseChinese(text: string): Intent {
  if (/(拍照|拍一张|照片|看看|看到什么|这是什么|前面有什么)/.test(text)) {
    return { kind: 'photo', question: text.trim() };
  }
  if (/(主题|模式)/.test(text) && !/(多少|什么)/.test(text)) {
    if (/(深色|暗色|黑色|夜间|暗黑)/.test(text)) return { kind: 'theme', theme: 'dark' };
    if (/(浅色|亮色|白色|日间|明亮)/.test(text)) return { kind: 'theme', theme: 'light' };
  }
  const property = propertyOf(text);
  if (/(多少|多大|几|什么|吗|？|\?)/.test(text)) {
    if (/主题/.test(text)) return { kind: 'query', property: 'theme' };
    if (/(电量|电池)/.test(text)) return { kind: 'query', property: 'battery' };
    if (property) return { kind: 'query', property };
  }
  if (!property) return { kind: 'unknown' };
  // 一点 / 一些 / 一下 are "a bit", not the number one.
  const plain = text.replace(/一(点|些|下)/g, '');
  const by = /(调高|调低|调大|调小|增加|减少|提高|降低|加|减)了?([零〇一二两三四五六七八九十百\d]+)/.exec(
    plain,
  );
  const value = findChineseNumber(plain);
  if (value !== undefined && !by && /(到|成|为|设)/.test(text)) return { kind: 'set', property, value };
  const rest = text.replace(/(音量|声音|亮度|屏幕)/g, '');
  const direction = UP.test(rest) ? 1 : DOWN.test(rest) ? -1 : undefined;
  if (direction === undefined) return { kind: 'unknown' };
  const step = by ? findChineseNumber(by[2]!) : undefined;
  const large = /(很多|多一些|大幅|非常)/.test(text);
  return { kind: 'adjust', property, direction, step: step ?? (large ? LARGE_STEP : SMALL_STEP) };
}

function propertyOf(text: string): Property | undefined {
  if (/(亮度|屏幕|亮一|暗一|调亮|调暗)/.test(text)) return 'brightness';
  if (/(音量|声音|大声|小声|响一|轻一)/.test(text)) return 'volume';
  return undefined;
}

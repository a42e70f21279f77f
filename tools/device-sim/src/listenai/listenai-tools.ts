import type { ContentItem } from '@fleet/protocol';

/** What a ListenAI device's tool callbacks see and change. */
export interface ListenAiState {
  volume: number;
  screen: { content: string; brightness: number };
  photos: number;
}

export interface ListenAiToolResult {
  content: ContentItem[];
  isError: boolean;
}

/** One tool as the device declares it in tools/list and runs it in tools/call. */
export interface ListenAiTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** Changes device state (a `lie` fault answers success and changes nothing). */
  readonly changesState: boolean;
  run(args: Record<string, unknown>, state: ListenAiState): ListenAiToolResult;
}

// A 1×1 PNG: what take_photo returns as its `image` content (listenai.md: data base64, mimeType).
export const SAMPLE_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const text = (t: string, isError = false): ListenAiToolResult => ({
  content: [{ type: 'text', text: t }],
  isError,
});

/** Seed 002's failure texts: arguments that fail the inputSchema answer isError:true with what was wrong. */
function numberIn(
  args: Record<string, unknown>,
  name: string,
  failure: string,
  [min, max]: [number, number],
): number | string {
  const value = args[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) return `参数验证失败: ${name} 必须是数字`;
  if (value < min || value > max) return `${failure}: 参数超出范围 (${min}-${max})`;
  return value;
}

/** Seed 002's example tools, a readback for the volume and a camera that answers with an image. */
export const ARCS_MINI_TOOLS: readonly ListenAiTool[] = [
  {
    name: 'set_screen',
    description: '设置屏幕显示内容或状态',
    inputSchema: {
      type: 'object',
      properties: {
        content: { type: 'string', description: '显示内容' },
        brightness: { type: 'number', description: '亮度值 (0-100)' },
      },
      required: ['content'],
    },
    changesState: true,
    run(args, state) {
      if (typeof args['content'] !== 'string') return text('参数验证失败: content 必须是字符串', true);
      const brightness =
        args['brightness'] === undefined
          ? state.screen.brightness
          : numberIn(args, 'brightness', '屏幕设置失败', [0, 100]);
      if (typeof brightness === 'string') return text(brightness, true);
      state.screen = { content: args['content'], brightness };
      return text(`屏幕已显示: ${args['content']}`);
    },
  },
  {
    name: 'set_volume',
    description: '调节设备音量',
    inputSchema: {
      type: 'object',
      properties: {
        value: { type: 'number', description: '音量值 (0-100)', minimum: 0, maximum: 100 },
      },
      required: ['value'],
    },
    changesState: true,
    run(args, state) {
      const value = numberIn(args, 'value', '音量设置失败', [0, 100]);
      if (typeof value === 'string') return text(value, true);
      state.volume = value;
      return text(`音量已设置为 ${value}%`);
    },
  },
  {
    name: 'get_volume',
    description: '读取当前音量',
    inputSchema: { type: 'object', properties: {} },
    changesState: false,
    run: (_args, state) => text(JSON.stringify({ value: state.volume })),
  },
  {
    name: 'take_photo',
    description: '拍一张照片并返回图片',
    inputSchema: { type: 'object', properties: {} },
    changesState: false,
    run(_args, state) {
      state.photos++;
      return {
        content: [
          { type: 'text', text: '已拍照' },
          { type: 'image', data: SAMPLE_PNG_BASE64, mimeType: 'image/png' },
        ],
        isError: false,
      };
    },
  },
];

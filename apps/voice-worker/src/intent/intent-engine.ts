import type { Language } from '../language';
import type { ToolResult } from '../providers/llm/tool-result';
import { engineTexts as say } from './engine-texts';
import type { Intent, Property } from './intent';
import { parseIntent } from './parse-intent';
import { readStatus } from './status';

export const STATUS_TOOL = 'self.get_device_status';
const SETTER: Record<Property, { tool: string; argument: string }> = {
  volume: { tool: 'self.audio_speaker.set_volume', argument: 'volume' },
  brightness: { tool: 'self.screen.set_brightness', argument: 'brightness' },
};
const THEME_TOOL = 'self.screen.set_theme';
const PHOTO_TOOL = 'self.camera.take_photo';

export interface EngineTool {
  tool: string;
  parameters: Record<string, unknown>;
}

/** A call made earlier in this turn, and what came of it. */
export interface EngineHistory {
  tool: string;
  arguments: Record<string, unknown>;
  result: ToolResult | undefined;
}

export type EngineStep =
  { kind: 'call'; tool: string; arguments: Record<string, unknown> } | { kind: 'say'; text: string };

/**
 * The offline "LLM": a deterministic planner over the device's AI-visible tools. Each round it reads the turn so
 * far (its own calls and their verdicts) and answers with the next call or the final words, exactly as a model
 * with tool calling would. A relative change reads the status first; an out-of-range value refused by the
 * platform is retried once within the tool's declared range.
 */
export function nextStep(
  utterance: string,
  language: Language,
  tools: readonly EngineTool[],
  history: readonly EngineHistory[],
): EngineStep {
  const has = (tool: string) => tools.some((t) => t.tool === tool);
  const intent = parseIntent(utterance, language);
  const last = history.at(-1);
  switch (intent.kind) {
    case 'unknown':
      return { kind: 'say', text: say.unknown(language) };
    case 'set': {
      const setter = SETTER[intent.property];
      if (!has(setter.tool)) return { kind: 'say', text: say.unavailable(language) };
      if (!last) return call(setter.tool, { [setter.argument]: intent.value });
      return retryInRange(tools, history, setter) ?? { kind: 'say', text: say.done(language) };
    }
    case 'adjust':
      return adjust(intent, language, tools, history);
    case 'query':
      if (!has(STATUS_TOOL)) return { kind: 'say', text: say.unavailable(language) };
      if (!last) return call(STATUS_TOOL, {});
      return { kind: 'say', text: answer(intent.property, language, last.result) };
    case 'theme':
      if (!has(THEME_TOOL)) return { kind: 'say', text: say.unavailable(language) };
      return last ? { kind: 'say', text: say.done(language) } : call(THEME_TOOL, { theme: intent.theme });
    case 'photo':
      if (!has(PHOTO_TOOL)) return { kind: 'say', text: say.unavailable(language) };
      if (!last) return call(PHOTO_TOOL, { question: intent.question });
      return { kind: 'say', text: last.result?.result ?? say.done(language) };
  }
}

function adjust(
  intent: Extract<Intent, { kind: 'adjust' }>,
  language: Language,
  tools: readonly EngineTool[],
  history: readonly EngineHistory[],
): EngineStep {
  const setter = SETTER[intent.property];
  if (!tools.some((t) => t.tool === setter.tool) || !tools.some((t) => t.tool === STATUS_TOOL)) {
    return { kind: 'say', text: say.unavailable(language) };
  }
  const status = history.find((h) => h.tool === STATUS_TOOL);
  if (!status) return call(STATUS_TOOL, {});
  if (history.some((h) => h.tool === setter.tool)) return { kind: 'say', text: say.done(language) };
  const current = readStatus(status.result, intent.property);
  if (typeof current !== 'number') return { kind: 'say', text: say.noStatus(language) };
  const { min, max } = rangeOf(tools, setter);
  const target = Math.min(max, Math.max(min, current + intent.direction * intent.step));
  return call(setter.tool, { [setter.argument]: target });
}

/** After a refused value outside the declared range: once more, clamped into it. */
function retryInRange(
  tools: readonly EngineTool[],
  history: readonly EngineHistory[],
  setter: { tool: string; argument: string },
): EngineStep | undefined {
  const attempts = history.filter((h) => h.tool === setter.tool);
  const lastAttempt = attempts.at(-1);
  if (attempts.length !== 1 || !lastAttempt || lastAttempt.result?.ok !== false) return undefined;
  if (lastAttempt.result.verdict !== 'invalid_arguments') return undefined;
  const value = lastAttempt.arguments[setter.argument];
  if (typeof value !== 'number') return undefined;
  const { min, max } = rangeOf(tools, setter);
  const clamped = Math.min(max, Math.max(min, Math.round(value)));
  return clamped === value ? undefined : call(setter.tool, { [setter.argument]: clamped });
}

function rangeOf(tools: readonly EngineTool[], setter: { tool: string; argument: string }) {
  const properties = tools.find((t) => t.tool === setter.tool)?.parameters['properties'];
  const schema = (properties as Record<string, { minimum?: unknown; maximum?: unknown }> | undefined)?.[
    setter.argument
  ];
  return {
    min: typeof schema?.minimum === 'number' ? schema.minimum : 0,
    max: typeof schema?.maximum === 'number' ? schema.maximum : 100,
  };
}

function answer(property: Property | 'theme' | 'battery', language: Language, result?: ToolResult): string {
  const value = readStatus(result, property);
  if (value === undefined) return say.noStatus(language);
  switch (property) {
    case 'volume':
      return say.volumeIs(language, value);
    case 'brightness':
      return say.brightnessIs(language, value);
    case 'theme':
      return say.themeIs(language, value);
    case 'battery':
      return say.batteryIs(language, value);
  }
}

function call(tool: string, args: Record<string, unknown>): EngineStep {
  return { kind: 'call', tool, arguments: args };
}

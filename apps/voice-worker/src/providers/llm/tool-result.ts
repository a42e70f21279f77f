import { z } from 'zod';

/**
 * What a tool call's outcome looks like to the LLM: the verdict, and the device's answer or why there is none.
 * A refusal (rejected, invalid_arguments with the reason naming the argument, device_error) goes back like this
 * so the model can correct itself.
 */
export const toolResultSchema = z.object({
  verdict: z.string(),
  ok: z.boolean(),
  result: z.string().optional(),
  error: z.string().optional(),
});
export type ToolResult = z.infer<typeof toolResultSchema>;

export function toolResultContent(result: ToolResult): string {
  return JSON.stringify(result);
}

export function readToolResult(content: string): ToolResult | undefined {
  try {
    const parsed = toolResultSchema.safeParse(JSON.parse(content));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

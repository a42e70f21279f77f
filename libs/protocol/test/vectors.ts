import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface McpVector {
  case: string;
  request: string;
  replies: string[];
}

/** test/vectors/mcp-server-2.4.2.jsonl: the real firmware's replies, one exchange per line, in order. */
export function loadMcpVectors(): McpVector[] {
  const text = readFileSync(join(__dirname, 'vectors', 'mcp-server-2.4.2.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as McpVector);
}

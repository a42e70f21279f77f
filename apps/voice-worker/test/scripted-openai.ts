import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toneWav } from '@fleet/testing';

/** The OpenAI rule for function names; a real API answers 400 to anything else. */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ChatBody {
  model: string;
  stream?: boolean;
  messages: {
    role: string;
    content: unknown;
    tool_call_id?: string;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  }[];
  tools?: { type: string; function: { name: string; description: string; parameters: unknown } }[];
}

export type ChatAnswer = { text: string } | { toolCalls: { name: string; arguments: unknown }[] };

export interface ScriptedOpenAi {
  /** Base URL with the version: `http://127.0.0.1:<port>/v1`. */
  url: string;
  chats: ChatBody[];
  /** Requests answered 400 because a function name broke the rule. */
  refused: string[];
  transcriptions: { contentType: string; bytes: number }[];
  speech: { input: string; voice: string }[];
  /** Decides each chat answer; set by each test. */
  script: (body: ChatBody) => ChatAnswer;
  transcript: string;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible server over real HTTP, scripted per test: chat completions (streamed like the real API,
 * tool calls arriving in pieces), transcriptions and speech. It enforces the function-name rule as the real API
 * does, so a worker that sends `self.audio_speaker.set_volume` as a name gets a 400.
 */
export async function startScriptedOpenAi(): Promise<ScriptedOpenAi> {
  const state: ScriptedOpenAi = {
    url: '',
    chats: [],
    refused: [],
    transcriptions: [],
    speech: [],
    script: () => ({ text: 'OK.' }),
    transcript: '',
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    void handle(state, req, res).catch((err: Error) => {
      res.writeHead(500).end(err.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

async function handle(state: ScriptedOpenAi, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (req.url === '/v1/audio/transcriptions') {
    state.transcriptions.push({ contentType: req.headers['content-type'] ?? '', bytes: body.length });
    return json(res, 200, { text: state.transcript });
  }
  if (req.url === '/v1/audio/speech') {
    const request = JSON.parse(body.toString()) as { input: string; voice: string };
    state.speech.push({ input: request.input, voice: request.voice });
    res.writeHead(200, { 'content-type': 'audio/wav' }).end(toneWav(600));
    return;
  }
  if (req.url !== '/v1/chat/completions') return json(res, 404, { error: { message: 'not found' } });
  const chat = JSON.parse(body.toString()) as ChatBody;
  const names = [
    ...(chat.tools ?? []).map((t) => t.function.name),
    ...chat.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.function.name)),
  ];
  const bad = names.find((n) => !FUNCTION_NAME.test(n));
  if (bad !== undefined) {
    state.refused.push(bad);
    return json(res, 400, {
      error: { message: `Invalid 'tools[].function.name': string does not match pattern. Got '${bad}'` },
    });
  }
  state.chats.push(chat);
  const answer = state.script(chat);
  if (chat.stream) return stream(res, answer);
  const message =
    'text' in answer
      ? { role: 'assistant', content: answer.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: answer.toolCalls.map((c, i) => ({
            id: `call_${i}`,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.arguments) },
          })),
        };
  json(res, 200, { choices: [{ index: 0, message, finish_reason: 'stop' }] });
}

/** Server-sent events as the real API streams them: a role chunk, pieces, a finish chunk, [DONE]. */
function stream(res: ServerResponse, answer: ChatAnswer): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (delta: unknown, finish: string | null = null) =>
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  send({ role: 'assistant', content: null });
  if ('text' in answer) {
    for (const piece of answer.text.match(/.{1,8}/gsu) ?? []) send({ content: piece });
    send({}, 'stop');
  } else {
    answer.toolCalls.forEach((call, index) => {
      const args = JSON.stringify(call.arguments);
      const half = Math.floor(args.length / 2);
      send({
        tool_calls: [
          {
            index,
            id: `call_${index}_${Date.now()}`,
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      });
      send({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] });
      send({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
    });
    send({}, 'tool_calls');
  }
  res.end('data: [DONE]\n\n');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The tool results the model was given so far in this conversation (parsed). */
export function toolResults(
  body: ChatBody,
): { verdict: string; ok: boolean; error?: string; result?: string }[] {
  return body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(String(m.content)) as { verdict: string; ok: boolean; error?: string });
}

export function userText(body: ChatBody): string {
  const content = body.messages.find((m) => m.role === 'user')?.content;
  return typeof content === 'string' ? content : '';
}

/** The function name the worker gave a device tool (found by its end, as a model reads the list). */
export function functionFor(body: ChatBody, suffix: string): string {
  const found = (body.tools ?? []).find((t) => t.function.name.endsWith(suffix));
  if (!found)
    throw new Error(
      `no tool ending in ${suffix} among ${(body.tools ?? []).map((t) => t.function.name).join(', ')}`,
    );
  return found.function.name;
}

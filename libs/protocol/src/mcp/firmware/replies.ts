import { printCJson } from '../../json/cjson-print';
import { cjson, cString, type CJsonValue } from '../../json/cjson-value';
import { assertNever } from '../../result';

/** What a tool callback returns (mcp_server.h ReturnValue). */
export type ToolReturnValue =
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'json'; readonly value: CJsonValue }
  | { readonly type: 'image'; readonly mimeType: string; readonly data: Uint8Array };

export const toolReturn = {
  bool: (value: boolean): ToolReturnValue => ({ type: 'bool', value }),
  int: (value: number): ToolReturnValue => ({ type: 'int', value }),
  string: (value: string): ToolReturnValue => ({ type: 'string', value }),
  json: (value: CJsonValue): ToolReturnValue => ({ type: 'json', value }),
  image: (mimeType: string, data: Uint8Array): ToolReturnValue => ({ type: 'image', mimeType, data }),
};

/** McpServer::ReplyResult: `result` is spliced in as it is. */
export function firmwareResultReply(id: number, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${id},"result":${resultJson}}`;
}

/** McpServer::ReplyError: no code, and the message is spliced in UNESCAPED, so a `"` in it breaks the JSON. */
export function firmwareErrorReply(id: number, message: string): string {
  return `{"jsonrpc":"2.0","id":${id},"error":{"message":"${message}"}}`;
}

/** The initialize result; the board name and version are spliced in unescaped too. */
export function firmwareInitializeResult(boardName: string, firmwareVersion: string): string {
  return `{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"${boardName}","version":"${firmwareVersion}"}}`;
}

/**
 * McpTool::Call: one content item, `isError` always false. bool → "true"/"false", int → decimal,
 * string → as is, cJSON → its unformatted JSON as text; an image is an "image" item whose `image` field is the
 * stringified {type, mimeType, data} (the stock tools never return one).
 */
export function firmwareToolResultJson(value: ToolReturnValue): string {
  return printCJson(
    cjson.object([
      ['content', cjson.array([contentItem(value)])],
      ['isError', cjson.bool(false)],
    ]),
  );
}

function contentItem(value: ToolReturnValue): CJsonValue {
  if (value.type === 'image') {
    const image = cjson.object([
      ['type', cjson.string('image')],
      ['mimeType', cjson.string(value.mimeType)],
      ['data', cjson.string(Buffer.from(value.data).toString('base64'))],
    ]);
    return cjson.object([
      ['type', cjson.string('image')],
      ['image', cjson.string(printCJson(image))],
    ]);
  }
  return cjson.object([
    ['type', cjson.string('text')],
    ['text', cjson.string(textOf(value))],
  ]);
}

function textOf(value: Exclude<ToolReturnValue, { type: 'image' }>): string {
  switch (value.type) {
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'int':
      return String(Math.trunc(value.value));
    case 'string':
      return cString(value.value);
    case 'json':
      return printCJson(value.value);
    default:
      return assertNever(value, 'return value');
  }
}

// listenai.md: a ListenAI tool may answer with `image` content (`data` base64, `mimeType`). The console shows
// it from the evidence's exact bytes, as a data: URL, only for raster types a browser cannot run as script.
const SAFE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface ReplyImage {
  mimeType: string;
  src: string;
  bytes: number;
}

/** The images of a tools/call reply (either dialect's envelope), from its decoded text. */
export function replyImages(replyText: string): ReplyImage[] {
  let reply: unknown;
  try {
    reply = JSON.parse(replyText);
  } catch {
    return [];
  }
  const result =
    (reply as { result?: unknown; payload?: { result?: unknown } } | null)?.result ??
    (reply as { payload?: { result?: unknown } } | null)?.payload?.result;
  const content = (result as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((item: unknown) => {
    const { type, data, mimeType } = (item ?? {}) as { type?: unknown; data?: unknown; mimeType?: unknown };
    if (type !== 'image' || typeof data !== 'string' || typeof mimeType !== 'string') return [];
    if (!SAFE_TYPES.has(mimeType) || !BASE64.test(data)) return [];
    return [{ mimeType, src: `data:${mimeType};base64,${data}`, bytes: decodedLength(data) }];
  });
}

function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/**
 * JSON read the one way every reader reads it. RFC 8259 §4 leaves duplicate names undefined: JSON.parse keeps the
 * last, other parsers the first, so `"verdict":"device_error","verdict":"verified"` shows one reader a verdict the
 * signature never covered. A file with a name twice in one object, or bytes that are not UTF-8, is refused.
 */
export class StrictJsonError extends Error {}

export class DuplicateKeyError extends StrictJsonError {
  constructor(
    /** Where the object holding the name twice sits, as `evidence.calls[0]`. */
    readonly path: string,
    readonly key: string,
  ) {
    super(`the name ${JSON.stringify(key)} appears twice in one object (at ${path || 'the top level'})`);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as a file holds them: UTF-8 only (a bad sequence would otherwise be read as U+FFFD, silently). */
export function decodeStrictUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new StrictJsonError('the file is not UTF-8 text');
  }
}

/** JSON.parse, after refusing any object that names a member twice. */
export function parseStrictJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new StrictJsonError(`not JSON: ${(err as Error).message}`);
  }
  refuseDuplicateNames(text);
  return value;
}

type Frame = { kind: 'object'; names: Set<string>; name?: string } | { kind: 'array'; index: number };

/**
 * Walks text JSON.parse has already accepted, so only strings and structure matter: a string followed by `:` is a
 * member name of the innermost object. Iterative, so nesting depth costs memory, not stack.
 */
function refuseDuplicateNames(text: string): void {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      const frame = stack[stack.length - 1];
      if (frame?.kind === 'object' && nextSignificant(text, end + 1) === ':') {
        const name = JSON.parse(text.slice(i, end + 1)) as string; // escapes decoded: "\u0076erdict" is "verdict"
        if (frame.names.has(name)) throw new DuplicateKeyError(pathOf(stack.slice(0, -1)), name);
        frame.names.add(name);
        frame.name = name;
      }
      i = end;
    } else if (c === '{') stack.push({ kind: 'object', names: new Set() });
    else if (c === '[') stack.push({ kind: 'array', index: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const frame = stack[stack.length - 1];
      if (frame?.kind === 'array') frame.index++;
    }
  }
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

function nextSignificant(text: string, from: number): string | undefined {
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') return c;
  }
  return undefined;
}

/** The path of the innermost open container: the member or element of each enclosing one. */
function pathOf(enclosing: Frame[]): string {
  let path = '';
  for (const frame of enclosing) {
    if (frame.kind === 'array') path += `[${frame.index}]`;
    else if (frame.name !== undefined)
      path += /^[A-Za-z_$][\w$]*$/.test(frame.name)
        ? `${path ? '.' : ''}${frame.name}`
        : `[${JSON.stringify(frame.name)}]`;
  }
  return path;
}

import { err, ok, type ProtocolError, type Result } from '../result';
import { cjson, type CJsonMember, type CJsonValue } from './cjson-value';
import { decodeUtf8 } from './utf8';

export type CJsonParseError = ProtocolError<'invalid_json'> & { readonly offset: number };

// cJSON.h: CJSON_NESTING_LIMIT
const NESTING_LIMIT = 1000;
// The characters cJSON's parse_number copies before handing them to strtod.
const NUMBER_CHARS = /^[0-9+\-eE.]+/;
// The prefix of those characters that strtod accepts.
const STRTOD_PREFIX = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const SIMPLE_ESCAPES: Record<string, string> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  '"': '"',
  '\\': '\\',
  '/': '/',
};

class Failure extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Parses like the firmware's `cJSON_Parse(payload.c_str())`: the input ends at its first NUL byte, a UTF-8 BOM and
 * leading bytes <= 0x20 are skipped, trailing text after the value is ignored, duplicate keys are all kept.
 * Invalid UTF-8 is decoded with U+FFFD (the firmware would carry the raw bytes through).
 */
export function parseCJson(input: string | Uint8Array): Result<CJsonValue, CJsonParseError> {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  const parser = new Parser(cutAtNul(text));
  try {
    return ok(parser.document());
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    return err({ kind: 'invalid_json', message: `${e.reason} at offset ${e.offset}`, offset: e.offset });
  }
}

function cutAtNul(text: string): string {
  const nul = text.indexOf('\u0000');
  return nul === -1 ? text : text.slice(0, nul);
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly s: string) {}

  document(): CJsonValue {
    if (this.s.startsWith('\uFEFF')) this.pos = 1;
    this.skipWhitespace();
    return this.value();
  }

  private value(): CJsonValue {
    const rest = this.s.slice(this.pos, this.pos + 5);
    if (rest.startsWith('null')) return this.literal(4, cjson.null());
    if (rest.startsWith('false')) return this.literal(5, cjson.bool(false));
    if (rest.startsWith('true')) return this.literal(4, cjson.bool(true));
    const c = this.s[this.pos];
    if (c === '"') return cjson.string(this.string());
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    if (c === '[') return this.array();
    if (c === '{') return this.object();
    throw new Failure(
      this.pos,
      c === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`,
    );
  }

  private literal(length: number, value: CJsonValue): CJsonValue {
    this.pos += length;
    return value;
  }

  private number(): CJsonValue {
    const chars = NUMBER_CHARS.exec(this.s.slice(this.pos))?.[0] ?? '';
    const accepted = STRTOD_PREFIX.exec(chars)?.[0];
    if (!accepted) throw new Failure(this.pos, 'invalid number');
    this.pos += accepted.length;
    return cjson.number(Number(accepted));
  }

  private string(): string {
    const start = this.pos;
    let end = start + 1;
    while (end < this.s.length && this.s[end] !== '"') {
      if (this.s[end] === '\\') end++;
      end++;
    }
    if (end >= this.s.length) throw new Failure(start, 'unterminated string');
    let out = '';
    for (let i = start + 1; i < end; i++) {
      const c = this.s.charAt(i);
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s.charAt(++i);
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) out += simple;
      else if (e === 'u') {
        const [text, consumed] = this.unicodeEscape(i - 1, end);
        out += text;
        i += consumed - 2;
      } else throw new Failure(i, `invalid escape \\${e}`);
    }
    this.pos = end + 1;
    return out;
  }

  /** cJSON utf16_literal_to_utf8: a high surrogate must be followed by `\u` and a low one; a lone low one fails. */
  private unicodeEscape(at: number, end: number): [string, number] {
    const first = this.hex4(at + 2, end);
    if (first >= 0xdc00 && first <= 0xdfff) throw new Failure(at, 'lone low surrogate');
    if (first < 0xd800 || first > 0xdbff) return [String.fromCharCode(first), 6];
    if (this.s[at + 6] !== '\\' || this.s[at + 7] !== 'u') {
      throw new Failure(at, 'high surrogate without a pair');
    }
    const second = this.hex4(at + 8, end);
    if (second < 0xdc00 || second > 0xdfff) throw new Failure(at, 'invalid surrogate pair');
    return [String.fromCharCode(first, second), 12];
  }

  private hex4(from: number, end: number): number {
    const digits = this.s.slice(from, from + 4);
    if (from + 4 > end || !/^[0-9a-fA-F]{4}$/.test(digits)) throw new Failure(from, 'invalid \\u escape');
    return parseInt(digits, 16);
  }

  private array(): CJsonValue {
    this.enter();
    const items: CJsonValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.s[this.pos] !== ']') {
      for (;;) {
        this.skipWhitespace();
        items.push(this.value());
        this.skipWhitespace();
        if (this.s[this.pos] !== ',') break;
        this.pos++;
      }
      if (this.s[this.pos] !== ']') throw new Failure(this.pos, 'expected , or ]');
    }
    this.pos++;
    this.depth--;
    return cjson.array(items);
  }

  private object(): CJsonValue {
    this.enter();
    const members: CJsonMember[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.s[this.pos] !== '}') {
      for (;;) {
        this.skipWhitespace();
        if (this.s[this.pos] !== '"') throw new Failure(this.pos, 'expected a string key');
        const key = this.string();
        this.skipWhitespace();
        if (this.s[this.pos] !== ':') throw new Failure(this.pos, 'expected :');
        this.pos++;
        this.skipWhitespace();
        members.push({ key, value: this.value() });
        this.skipWhitespace();
        if (this.s[this.pos] !== ',') break;
        this.pos++;
      }
      if (this.s[this.pos] !== '}') throw new Failure(this.pos, 'expected , or }');
    }
    this.pos++;
    this.depth--;
    return cjson.object(members.map((m) => [m.key, m.value]));
  }

  private enter(): void {
    if (this.depth >= NESTING_LIMIT) throw new Failure(this.pos, 'nesting too deep');
    this.depth++;
  }

  // cJSON buffer_skip_whitespace: every byte <= 0x20 counts as whitespace.
  private skipWhitespace(): void {
    while (this.pos < this.s.length && this.s.charCodeAt(this.pos) <= 32) this.pos++;
  }
}

import { BufferList } from 'bl';
import type { Client } from 'aedes';

/** The parts of mqtt-packet's parser a connection keeps for its lifetime (mqtt-packet parser.js). */
export interface ParserState {
  /** Bytes received and not yet parsed: a `bl` stream, though the parser only reads it as a buffer list. */
  _list: InstanceType<typeof BufferList>;
  /** The CONNECT packet (`_parseConnect` keeps it whole), read after that for two flags only. */
  settings: { protocolVersion?: number; bridgeMode?: boolean };
}

/**
 * Memory per connection (docs/BENCHMARKS.md §16): once a client is connected, its parser keeps a plain buffer list
 * instead of the duplex stream mqtt-packet gives it (its readable and writable states, events and bound callbacks
 * are never used), and only the two flags it reads of the CONNECT packet, which also stops it holding the
 * device's password for as long as the connection lasts. Bytes already received stay in the new list, in order.
 */
export function slimParser(parser: ParserState): void {
  const list = new BufferList();
  if (parser._list.length > 0) list.append(parser._list.slice());
  parser._list = list;
  const { protocolVersion, bridgeMode } = parser.settings;
  parser.settings = {
    ...(protocolVersion !== undefined ? { protocolVersion } : {}),
    ...(bridgeMode !== undefined ? { bridgeMode } : {}),
  };
}

/** The parser of an aedes client (lib/client.js `_parser`), when it has one. */
export function parserOf(client: Client): ParserState | undefined {
  return (client as Client & { _parser?: ParserState })._parser;
}

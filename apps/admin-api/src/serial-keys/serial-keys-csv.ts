import { parse } from 'csv-parse/sync';
import { EFUSE_KEY_BYTES, SERIAL_NUMBER } from '@fleet/protocol';
import { ApiError } from '../http/api-error';

export interface SerialKeyRow {
  serialNumber: string;
  efuseKey: Buffer;
}

/** More pairs than one factory batch; a larger file is split by whoever imports it. */
export const MAX_ROWS = 100_000;
const HEX_KEY = new RegExp(`^[0-9a-fA-F]{${EFUSE_KEY_BYTES * 2}}$`);

const invalid = (line: number, field: string, message: string) =>
  new ApiError(400, 'validation_failed', `line ${line}: ${field}: ${message}`, [
    { field: `body.line${line}.${field}`, message },
  ]);

/**
 * `serial_number,key` per line (a header line with those names is optional): the eFuse serial as the device
 * sends it in `Serial-Number`, and its HMAC KEY0 as 64 hex digits (xiaozhi §4.3). The whole file is refused at
 * the first bad line, naming it, and a serial that appears twice is refused too.
 */
export function readSerialKeyCsv(bytes: Buffer): SerialKeyRow[] {
  let records: string[][];
  try {
    records = parse(bytes, { skip_empty_lines: true, trim: true, bom: true, relax_column_count: true });
  } catch (err) {
    throw new ApiError(400, 'validation_failed', `body: not CSV (${(err as Error).message})`, [
      { field: 'body', message: 'not CSV' },
    ]);
  }
  const first = records[0];
  const header = first?.[0]?.toLowerCase() === 'serial_number' && first[1]?.toLowerCase() === 'key';
  const rows = header ? records.slice(1) : records;
  if (rows.length === 0) throw new ApiError(400, 'validation_failed', 'body: no serial_number,key lines');
  if (rows.length > MAX_ROWS)
    throw new ApiError(400, 'validation_failed', `body: more than ${MAX_ROWS} lines`);
  const seen = new Set<string>();
  return rows.map((record, i) => {
    const line = i + (header ? 2 : 1);
    if (record.length !== 2) throw invalid(line, 'columns', 'expected serial_number,key');
    const [serialNumber, key] = record as [string, string];
    if (!SERIAL_NUMBER.test(serialNumber))
      throw invalid(line, 'serial_number', 'printable ASCII, 1 to 32 characters');
    if (!HEX_KEY.test(key))
      throw invalid(line, 'key', `${EFUSE_KEY_BYTES * 2} hex digits (${EFUSE_KEY_BYTES} bytes)`);
    if (seen.has(serialNumber)) throw invalid(line, 'serial_number', 'appears twice in the file');
    seen.add(serialNumber);
    return { serialNumber, efuseKey: Buffer.from(key, 'hex') };
  });
}

import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/**
 * RFC 4180 CSV from rows produced on demand: a header row, CRLF line ends, fields quoted when they hold a
 * comma, quote or line break, and a UTF-8 BOM so a spreadsheet reads names and reasons in any script.
 * Backpressure flows from the socket back to the row producer. Text that a spreadsheet would run as a formula
 * (a device's error string or a reason starting with =, +, -, @, tab or CR) is prefixed with a quote (OWASP's
 * advice against CSV injection): the auditor sees the text, and nothing runs.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvStream(
  columns: readonly string[],
  rows: AsyncIterable<Record<string, unknown>>,
): Readable {
  const stringifier = stringify({
    header: true,
    columns: [...columns],
    bom: true,
    record_delimiter: 'windows',
    cast: {
      date: (d) => d.toISOString(),
      boolean: (b) => (b ? 'true' : 'false'),
      string: (text) => (FORMULA_START.test(text) ? `'${text}` : text),
    },
  });
  const source = Readable.from(rows);
  source.on('error', (err) => stringifier.destroy(err));
  return source.pipe(stringifier);
}

import { text } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { csvStream } from './csv-stream';

const rows = (list: Record<string, unknown>[]): AsyncIterable<Record<string, unknown>> =>
  (async function* () {
    await Promise.resolve();
    yield* list;
  })();

describe('the audit CSV', () => {
  it('keeps text that a spreadsheet would run as a formula as text', async () => {
    const csv = await text(
      csvStream(
        ['reason', 'error', 'count'],
        rows([
          { reason: '=HYPERLINK("http://evil.example","open")', error: '@SUM(A1)', count: -3 },
          { reason: '+1 volume', error: '-bad', count: 4 },
          { reason: 'quieter for the night shift', error: 'a, "quoted"\nline', count: 0 },
        ]),
      ),
    );
    const parsed = parse<Record<string, string>>(csv, { columns: true, bom: true });
    expect(parsed).toEqual([
      { reason: `'=HYPERLINK("http://evil.example","open")`, error: "'@SUM(A1)", count: '-3' },
      { reason: "'+1 volume", error: "'-bad", count: '4' },
      { reason: 'quieter for the night shift', error: 'a, "quoted"\nline', count: '0' },
    ]);
  });
});

import { StubBoard } from '../../../test/stub-board';
import { loadMcpVectors } from '../../../test/vectors';

describe('the firmware MCP server replayed against the 2.4.2 vectors', () => {
  const vectors = loadMcpVectors();
  const board = new StubBoard();
  const actual = vectors.map((v) => board.receive(v.request));

  it('covers all 61 recorded exchanges', () => {
    expect(vectors).toHaveLength(61);
  });

  it.each(vectors.map((v, i) => [i, v.case] as const))('answers exchange %i (%s) byte for byte', (i) => {
    expect(actual[i]).toEqual(vectors[i]?.replies);
  });
});

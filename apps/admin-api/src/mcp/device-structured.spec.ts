import { deviceStructured } from './device-structured';

const schema = {
  type: 'object',
  properties: { volume: { type: 'integer', minimum: 0, maximum: 100 } },
  required: ['volume'],
};

describe('deviceStructured', () => {
  it("reads a JSON reply as data and checks it against the tool's declared outputSchema", () => {
    expect(deviceStructured('{"volume":40}', schema)).toEqual({
      value: { volume: 40 },
      matchesOutputSchema: true,
    });
  });

  it('says what does not fit when the reply breaks the declared shape', () => {
    const read = deviceStructured('{"volume":"loud"}', schema);
    expect(read.matchesOutputSchema).toBe(false);
    expect(read.problems).toEqual(['/volume must be integer']);
  });

  it('calls a reply that is not JSON a mismatch when a shape was promised, and plain text otherwise', () => {
    expect(deviceStructured('true!', schema)).toMatchObject({ matchesOutputSchema: false });
    expect(deviceStructured('true!', null)).toEqual({ matchesOutputSchema: null });
    expect(deviceStructured('true', null)).toEqual({ value: true, matchesOutputSchema: null });
  });

  it('reports a declared schema that does not compile instead of failing the call', () => {
    expect(deviceStructured('{}', { type: 'nonsense' })).toMatchObject({ matchesOutputSchema: false });
  });
});

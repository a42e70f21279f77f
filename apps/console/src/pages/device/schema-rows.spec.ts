import { argumentsFromFields, schemaRows } from './schema-rows';

const setVolume = {
  type: 'object',
  properties: {
    volume: { type: 'integer', minimum: 0, maximum: 100, description: 'The volume' },
    theme: { type: 'string', enum: ['light', 'dark'], default: 'light' },
    quiet: { type: 'boolean' },
  },
  required: ['volume'],
};

describe("a tool's schema, readable", () => {
  it('lists each argument with its type, range, choices, default and whether it is required', () => {
    expect(schemaRows(setVolume)).toEqual([
      {
        name: 'volume',
        type: 'integer',
        required: true,
        allowed: ['0 – 100'],
        defaultValue: undefined,
        description: 'The volume',
      },
      {
        name: 'theme',
        type: 'string',
        required: false,
        allowed: ['{ "light", "dark" }'],
        defaultValue: '"light"',
        description: undefined,
      },
      {
        name: 'quiet',
        type: 'boolean',
        required: false,
        allowed: [],
        defaultValue: undefined,
        description: undefined,
      },
    ]);
  });

  it('has no rows for a tool without arguments or a schema it cannot read', () => {
    expect(schemaRows({ type: 'object', properties: {} })).toEqual([]);
    expect(schemaRows(null)).toEqual([]);
    expect(schemaRows('nonsense')).toEqual([]);
  });

  it("types the form's text by the schema and leaves empty fields out", () => {
    expect(argumentsFromFields(setVolume, { volume: '40', theme: '', quiet: 'true' })).toEqual({
      volume: 40,
      quiet: true,
    });
  });
});

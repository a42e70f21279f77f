import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config';
import { envBoolean, envList, envPort, envUrl } from './env-types';

const schema = z.object({
  HTTP_PORT: envPort(8080),
  DATABASE_URL: envUrl('postgresql://localhost/x', ['postgresql:']),
  OPEN: envBoolean(false),
  KEYS: envList(),
});

describe('loadConfig', () => {
  it('applies defaults when variables are unset or empty', () => {
    expect(loadConfig(schema, { HTTP_PORT: '' })).toEqual({
      HTTP_PORT: 8080,
      DATABASE_URL: 'postgresql://localhost/x',
      OPEN: false,
      KEYS: [],
    });
  });

  it('parses ports, booleans and lists from their string forms', () => {
    expect(loadConfig(schema, { HTTP_PORT: '9000', OPEN: 'yes', KEYS: 'a, b,,c' })).toMatchObject({
      HTTP_PORT: 9000,
      OPEN: true,
      KEYS: ['a', 'b', 'c'],
    });
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig(schema, { HTTP_PORT: '70000', DATABASE_URL: 'mysql://x', OPEN: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = (error as ConfigError).problems.map((p) => p.variable).sort();
    expect(variables).toEqual(['DATABASE_URL', 'HTTP_PORT', 'OPEN']);
    expect((error as Error).message).toContain('HTTP_PORT');
  });
});

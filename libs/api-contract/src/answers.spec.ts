import { ANSWERS, answerSchema, answerSchemaAt } from './answers';
import { apiErrorSchema } from './common';
import { healthSchema } from './health';
import { deviceDetailSchema } from './devices';

describe('the answers table', () => {
  it('finds a route by method and path, whatever the method’s case', () => {
    expect(answerSchema('get', '/devices/:id')).toBe(deviceDetailSchema);
    expect(answerSchema('POST', '/auth/logout')).toBeNull();
    expect(answerSchema('GET', '/nowhere')).toBeUndefined();
  });

  it('holds refusals to the error schema, but the health report keeps its shape at 503', () => {
    expect(answerSchemaAt('GET', '/devices/:id', 404)).toBe(apiErrorSchema);
    expect(answerSchemaAt('GET', '/devices/:id', 200)).toBe(deviceDetailSchema);
    expect(answerSchemaAt('GET', '/healthz', 503)).toBe(healthSchema);
  });

  it('keys every route as METHOD and a path of the router', () => {
    for (const key of Object.keys(ANSWERS)) expect(key).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/[\w\-/:]*$/);
  });

  it('answers no field named like a Client-Id, only fingerprints (DESIGN §3)', () => {
    const fields = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'properties' && value && typeof value === 'object') {
            for (const name of Object.keys(value)) fields.add(name);
          }
          walk(value);
        }
      }
    };
    for (const schema of Object.values(ANSWERS)) {
      if (schema) walk(JSON.parse(JSON.stringify(schema.toJSONSchema({ unrepresentable: 'any' }))));
    }
    expect(fields).toContain('clientIdFingerprint');
    expect([...fields].filter((f) => /client_?id/i.test(f) && !/fingerprint/i.test(f))).toEqual([]);
  });
});

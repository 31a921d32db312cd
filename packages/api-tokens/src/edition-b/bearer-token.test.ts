import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer-token.js';

describe('the Bearer token of an Authorization header', () => {
  it('reads the token after a case-insensitive Bearer scheme', () => {
    expect(bearerToken('Bearer pat_x')).toBe('pat_x');
    expect(bearerToken('bearer   pat_x ')).toBe('pat_x');
    expect(bearerToken('BEARER pat_x')).toBe('pat_x');
  });

  it('gives an empty token for a bare Bearer (a present Bearer always wins: it is a 401, not a fall-through)', () => {
    expect(bearerToken('Bearer')).toBe('');
    expect(bearerToken('Bearer ')).toBe('');
  });

  it('is undefined without the header or for another scheme', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('ApiKey demo-admin-key')).toBeUndefined();
    expect(bearerToken('Basic YTpi')).toBeUndefined();
    expect(bearerToken('Bearerpat_x')).toBeUndefined();
  });
});

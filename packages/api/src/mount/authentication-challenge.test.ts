import { describe, expect, it } from 'vitest';
import { authenticationChallenge } from './authentication-challenge.js';

describe('authenticationChallenge ("a 401 carries WWW-Authenticate naming the scheme(s) the mount accepts")', () => {
  it('names each declared scheme that HTTP has a challenge for, Edition B\'s Bearer first, with the mount path as realm', () => {
    const schemes = {
      basic: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'header', name: 'Authorization' },
      bearer: { type: 'http', scheme: 'Bearer' },
      session: { type: 'apiKey', in: 'cookie', name: 'panel_session' },
      other: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    };
    expect(authenticationChallenge({ securitySchemes: schemes }, [{ type: 'http', scheme: 'bearer' }], '/api')).toBe('Bearer realm="/api", Basic realm="/api", charset="UTF-8", ApiKey realm="/api"');
    expect(authenticationChallenge({ securitySchemes: { key: schemes.key } }, [], '/admin/api')).toBe('ApiKey realm="/admin/api"');
  });

  it('is undefined when no declared scheme has a challenge (a session cookie alone, or nothing declared)', () => {
    expect(authenticationChallenge({ securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'panel_session' } } }, [], '/api')).toBeUndefined();
    expect(authenticationChallenge({}, [], '/api')).toBeUndefined();
  });

  it('quotes the realm', () => {
    expect(authenticationChallenge({ securitySchemes: { b: { type: 'http', scheme: 'bearer' } } }, [], '/a"b')).toBe('Bearer realm="/a\\"b"');
  });
});

import { describe, expect, it } from 'vitest';
import { confirmPath, safeReturnPath, signInPath } from './session-paths.js';

describe('session paths', () => {
  it('puts the confirm and sign-in pages under the root path', () => {
    expect([confirmPath('/panel'), signInPath('/panel')]).toEqual(['/panel/confirm', '/panel/login']);
    expect([confirmPath('/'), signInPath('/')]).toEqual(['/confirm', '/login']);
  });

  it('follows a return_to only to a path of this site', () => {
    expect(safeReturnPath('/panel/security?tab=1', '/panel')).toBe('/panel/security?tab=1');
    for (const target of ['//evil.example/', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/panel\r\nSet-Cookie: x=1', '', 42, undefined, `/${'a'.repeat(2048)}`]) {
      expect(safeReturnPath(target, '/panel'), String(target)).toBe('/panel');
    }
  });

  it('percent-encodes a return path outside printable ASCII (a Location header carries nothing else), so look-alikes of / and . stay path characters', () => {
    expect(safeReturnPath('/。/evil.example', '/panel')).toBe('/%E3%80%82/evil.example');
    expect(safeReturnPath('/∕∕evil.example', '/panel')).toBe('/%E2%88%95%E2%88%95evil.example');
    expect(safeReturnPath('/／/evil.example', '/panel')).toBe('/%EF%BC%8F/evil.example');
    expect(safeReturnPath('/panel/x?q=ü 1', '/panel')).toBe('/panel/x?q=%C3%BC%201');
    for (const target of ['/panel/\ud800', '/panel/\u007f', '/panel/\u0000']) expect(safeReturnPath(target, '/panel'), target).toBe('/panel');
  });
});

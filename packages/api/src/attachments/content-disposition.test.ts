import { describe, expect, it } from 'vitest';
import { contentDisposition, dispositionFor } from './content-disposition.js';

describe('dispositionFor', () => {
  it('shows images inline and offers everything else as a download', () => {
    expect(dispositionFor('image/png')).toBe('inline');
    expect(dispositionFor('IMAGE/JPEG; foo=bar')).toBe('inline');
    expect(dispositionFor('text/plain; charset=utf-8')).toBe('attachment');
    expect(dispositionFor('application/pdf')).toBe('attachment');
    expect(dispositionFor('text/html')).toBe('attachment');
  });

  it('offers SVG as a download, since it can carry scripts', () => {
    expect(dispositionFor('image/svg+xml')).toBe('attachment');
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII name as is, in both forms', () => {
    expect(contentDisposition('inline', 'cover.png')).toBe(`inline; filename="cover.png"; filename*=UTF-8''cover.png`);
  });

  it("encodes a UTF-8 name in filename* (RFC 5987) and falls back to '_' in filename", () => {
    expect(contentDisposition('attachment', 'résumé €.txt')).toBe(`attachment; filename="r_sum_ _.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%82%AC.txt`);
  });

  it("never lets a quote, a backslash or a percent sign through the plain filename, and encodes ' ( ) * in filename*", () => {
    expect(contentDisposition('attachment', `a"b\\c%d'(e)*.txt`)).toBe(`attachment; filename="a_b_c_d'(e)*.txt"; filename*=UTF-8''a%22b%5Cc%25d%27%28e%29%2A.txt`);
  });
});

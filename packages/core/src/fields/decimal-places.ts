/**
 * The decimal places of a finite number, counted on its shortest decimal text that reads back as
 * the same number (what `String` writes): `4.5` has 1, `1e-7` has 7, `0.1 + 0.2`
 * (`0.30000000000000004`) has 17, `1e21` none.
 *
 * @example
 * decimalPlaces(4.567) // 3
 */
export function decimalPlaces(value: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(value)).split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

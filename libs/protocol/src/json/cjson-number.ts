/**
 * cJSON print_number: an integral value that fits an int prints as `%d`; anything else as `%1.15g`, or `%1.17g`
 * when the 15-digit text does not read back within DBL_EPSILON (cJSON compare_double); NaN and infinities as null.
 * Rounding ties go up here where glibc's printf rounds them to even; at 15 significant digits that needs a double
 * whose exact expansion ends in a 5 at the 16th digit, which the firmware's own numbers never are.
 */
export function formatCJsonNumber(valuedouble: number, valueint: number): string {
  if (!Number.isFinite(valuedouble)) return 'null';
  if (valuedouble === valueint) return String(valueint);
  const short = formatG(valuedouble, 15);
  return closeEnough(Number(short), valuedouble) ? short : formatG(valuedouble, 17);
}

function closeEnough(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(Math.abs(a), Math.abs(b)) * Number.EPSILON;
}

/** printf("%1.<precision>g"): style e when the exponent is < -4 or >= precision, trailing zeros removed. */
export function formatG(value: number, precision: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponentText] = value.toExponential(precision - 1).split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= precision) {
    const sign = exponent < 0 ? '-' : '+';
    return `${stripZeros(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return stripZeros(value.toFixed(precision - 1 - exponent));
}

function stripZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

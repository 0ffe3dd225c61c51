/** Names capitalise each word (spec 5): 'mary ann' -> 'Mary Ann'. */
export function capitalizeWords(value: string): string {
  return value.replace(/(^|[\s-])(\p{L})/gu, (_, separator: string, letter: string) => separator + letter.toUpperCase());
}

/**
 * The phone keeps only digits after the dial code, and the dial-code prefix cannot be deleted
 * (spec 5): phoneWithDialCode('+65 9123-x', '+65') === '+659123'.
 */
export function phoneWithDialCode(raw: string, dialCode: string): string {
  if (!dialCode) return raw.replace(/(?!^\+)\D/g, '');
  if (raw.startsWith(dialCode)) return dialCode + raw.slice(dialCode.length).replace(/\D/g, '');
  if (raw.length < dialCode.length) return dialCode;
  const digits = raw.replace(/\D/g, '');
  const dialDigits = dialCode.replace(/\D/g, '');
  const at = digits.indexOf(dialDigits);
  // Typed before or inside the prefix: keep the prefix, the rest of the digits follow it.
  if (at >= 0) return dialCode + digits.slice(0, at) + digits.slice(at + dialDigits.length);
  // One character of the prefix was deleted: put it back.
  return dialCode + digits.slice(Math.max(0, dialDigits.length - 1));
}

/** A phone is filled when it holds more than its dial code. */
export function hasPhoneNumber(phone: string, dialCode: string): boolean {
  return phone.replace(/\D/g, '').length > dialCode.replace(/\D/g, '').length;
}

/** Ages are whole numbers, never negative (negatives become 0). */
export function ageInput(raw: string): string {
  if (raw === '') return '';
  const value = Math.trunc(Number(raw));
  return Number.isFinite(value) ? String(Math.max(0, value)) : '';
}

/** The age of a form field as the number the account schema takes (null while the field is empty). */
export function ageNumber(raw: string): number | null {
  const age = ageInput(raw);
  return age === '' ? null : Number(age);
}

/** The Luhn check of a card number (digits only): the last digit checks the others. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * ISO 13616's check of an IBAN (letters and digits, no spaces): the first four characters
 * moved to the end, each letter read as two digits (A = 10 ... Z = 35), the number mod 97 is 1.
 * Computed digit by digit, so no big integers.
 */
export function ibanValid(iban: string): boolean {
  if (iban.length < 15 || iban.length > 34) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const code = char.charCodeAt(0);
    if (code >= 48 && code <= 57) rest = (rest * 10 + (code - 48)) % 97;
    else if (code >= 65 && code <= 90) rest = (rest * 100 + (code - 55)) % 97;
    else return false;
  }
  return rest === 1;
}

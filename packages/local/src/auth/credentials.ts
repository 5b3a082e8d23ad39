// Input rules for email + password, as GoTrue applies them before touching the database.
import { validationFailed, weakPassword } from './errors.ts';

export const MIN_PASSWORD_LENGTH = 6;
/** bcrypt ignores everything after 72 bytes, so GoTrue refuses longer passwords outright. */
const MAX_PASSWORD_BYTES = 72;
const MAX_EMAIL_LENGTH = 255;
// The address pattern GoTrue validates with (checkmail's): a dotted domain is not required.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Validates and normalises an address: GoTrue stores and looks up emails in lower case. */
export function normalizeEmail(email: string | undefined): string {
  if (!email) throw validationFailed('An email address is required');
  const trimmed = email.trim();
  if (trimmed.length > MAX_EMAIL_LENGTH) throw validationFailed('An email address is too long');
  if (!EMAIL_PATTERN.test(trimmed)) throw validationFailed('Unable to validate email address: invalid format');
  return trimmed.toLowerCase();
}

export function checkNewPassword(password: string | undefined): string {
  if (password === undefined || password === '') throw validationFailed('Signup requires a valid password');
  // GoTrue counts characters (runes), not UTF-16 units.
  if ([...password].length < MIN_PASSWORD_LENGTH) throw weakPassword(MIN_PASSWORD_LENGTH);
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) {
    throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
  }
  return password;
}

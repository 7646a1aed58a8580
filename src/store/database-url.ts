import { redactSecrets, REDACTED } from '../core/redact-secrets.js';

/**
 * A PostgreSQL URL as it may be shown: in messages, logs and CLI output, with its password
 * blanked. A URL that does not parse is shown as its scheme only (its text could hold anything).
 */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.startsWith('postgresql:') ? 'postgresql://…' : 'postgres://…';
  }
  // Set as a plain word, then spelled as people read it: URL would percent-encode the brackets.
  const placeholder = 'switchyardredactedpassword';
  if (parsed.password !== '') parsed.password = placeholder;
  // A password may also come as ?password=… (libpq's query form).
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', placeholder);
  return parsed.toString().replaceAll(placeholder, REDACTED);
}

/**
 * `text` with the URL shown redacted and its password (as written and decoded) blanked: what a
 * driver's error or a log line says about the database. A password of one or two characters is
 * not looked for, or every word holding those letters would be garbled; it guards nothing anyway.
 */
export function redactDatabaseText(text: string, url: string): string {
  let redacted = text.replaceAll(url, redactDatabaseUrl(url));
  const secrets: string[] = [];
  try {
    const parsed = new URL(url);
    for (const value of [parsed.password, parsed.searchParams.get('password') ?? '']) {
      if (value.length < 3) continue;
      secrets.push(value, safeDecode(value));
    }
  } catch {
    // A URL that does not parse is never shown, so only its whole text was worth blanking.
  }
  secrets.sort((left, right) => right.length - left.length);
  redacted = redactSecrets(redacted, secrets);
  return redacted;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

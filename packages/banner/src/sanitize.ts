/**
 * Text shown in a terminal must not carry terminal controls: an app name, a version or a URL read from
 * configuration could otherwise move the cursor, recolour or retitle the terminal, or hide text
 * (ECMA-48 control functions start with C0 ESC, or with a C1 code such as U+009B CSI). Bidirectional
 * overrides are removed as well, so a name cannot display in an order other than the one stored
 * (the "Trojan Source" trick, CVE-2021-42574).
 */

/** C0 controls, DEL, C1 controls, and the Unicode bidirectional embeddings, overrides and isolates. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Everything outside printable ASCII, for terminals that cannot show UTF-8. */
const NON_ASCII = /[^\u0020-\u007e]/g;

/** Longest text the banner shows for one value; longer text is cut and ends with an ellipsis. */
export const MAX_BANNER_TEXT_LENGTH = 200;

/**
 * `value` as one line of terminal-safe text: strings as they are, finite numbers and booleans as
 * text, anything else (undefined, objects, symbols...) as `fallback`. Controls are removed, then the
 * text is cut to `maxLength` characters (code points, so a surrogate pair is never split).
 */
export function terminalSafeText(
  value: unknown,
  options: { fallback?: string; maxLength?: number; ascii?: boolean } = {},
): string {
  const fallback = options.fallback ?? '';
  let text: string;
  if (typeof value === 'string') text = value;
  else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
    text = String(value);
  else return fallback;
  text = text.replace(UNSAFE, '').trim();
  if (options.ascii === true) text = text.replace(NON_ASCII, '?');
  const max = Math.max(1, options.maxLength ?? MAX_BANNER_TEXT_LENGTH);
  const points = Array.from(text);
  if (points.length > max) text = `${points.slice(0, max - 1).join('')}${options.ascii ? '~' : '\u2026'}`;
  return text === '' ? fallback : text;
}

/**
 * `--since`: a duration back from now (`90m`, `24h`, `7d`, `2w`) or a date (`2026-11-01`, local
 * midnight) or a full ISO time. Returns ms since the epoch, or undefined when the text is neither.
 */
export function parseSince(text: string, now: number): number | undefined {
  const duration = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/.exec(text.trim());
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (day) {
    const time = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime();
    return Number.isNaN(time) ? undefined : time;
  }
  const time = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(time) ? undefined : time;
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

import type { ChalkInstance } from 'chalk';
import type { RecoveryRecord, RecoverySummary } from '../recoveries/recovery-record.js';

/**
 * Text output of `gateway recoveries`. Pure: the clock and the colours come in, so the same code
 * prints plain text to a pipe and colours to a terminal (a Chalk of level 0 prints no escapes).
 */

const COLUMNS = ['ID', 'AGE', 'REASON', 'STATE', 'HASH', 'USER', 'MODEL', 'PROTOCOL', 'SIZE'] as const;

export function formatRecoveriesTable(summaries: readonly RecoverySummary[], nowMs: number, colors: ChalkInstance): string {
  const rows = summaries.map((summary) => [
    summary.request_id,
    formatAge(nowMs / 1000 - summary.created_at),
    summary.interrupted_reason,
    summary.resumed_by !== undefined ? `${summary.state}, resumed` : summary.state,
    summary.request_body_hash,
    summary.user,
    summary.model,
    summary.protocol,
    formatSize(summary.response_body_size),
  ]);
  const widths = COLUMNS.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  // Pad the plain text first, then colour it: escape codes would count in the width otherwise.
  const line = (cells: readonly string[], paint: (cell: string, column: number) => string): string =>
    cells
      .map((cell, column) => paint(column === cells.length - 1 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]), column))
      .join('  ')
      .trimEnd();
  const header = line(COLUMNS, (cell) => colors.bold(cell));
  const body = rows.map((row, position) =>
    line(row, (cell, column) => {
      if (column === 0) return colors.cyan(cell);
      if (column === 2) return paintReason(summaries[position].interrupted_reason, cell, colors);
      // Still growing: worth a look again once the drain ends.
      if (column === 3) return summaries[position].state === 'draining' ? colors.green(cell) : cell;
      if (column === 4) return colors.dim(cell);
      return cell;
    }),
  );
  return [header, ...body].join('\n') + '\n';
}

function paintReason(reason: RecoverySummary['interrupted_reason'], text: string, colors: ChalkInstance): string {
  switch (reason) {
    case 'client_disconnected':
      return colors.yellow(text);
    case 'upstream_error':
      return colors.red(text);
    case 'upstream_timeout':
      return colors.magenta(text);
    case 'server_shutdown':
      return colors.blue(text);
    default: {
      const unknown: never = reason;
      return String(unknown);
    }
  }
}

export function formatRecordDetails(record: RecoveryRecord, nowMs: number, colors: ChalkInstance): string {
  const requestBytes = Buffer.byteLength(record.request.body_raw, 'utf8');
  const fields: Array<[string, string]> = [
    ['id', colors.cyan(record.request_id)],
    ['created', `${new Date(record.created_at * 1000).toISOString()} (${formatAge(nowMs / 1000 - record.created_at)} ago)`],
    ['reason', paintReason(record.interrupted_reason, record.interrupted_reason, colors)],
    ['state', record.state === 'draining' ? `${colors.green('draining')} (the upstream is still being read; the response grows)` : record.state],
    ...(record.error_message !== undefined ? [['error', record.error_message] as [string, string]] : []),
    ...(record.resumed_by !== undefined ? [['resumed by', `${record.resumed_by} (a retry was answered from this record)`] as [string, string]] : []),
    ['user', record.user],
    ['model', record.model],
    ['protocol', record.protocol],
    ['provider', record.provider],
    ['hash', record.request.request_body_hash],
    ['request', record.request.body_raw === '__OMITTED_TOO_LARGE__' ? 'not stored (over 20 MB)' : formatSize(requestBytes)],
    ['response', formatSize(record.response.response_body_size)],
  ];
  const width = Math.max(...fields.map(([name]) => name.length));
  const lines = fields.map(([name, value]) => `${colors.bold(name.padEnd(width))}  ${value}`);
  lines.push(colors.dim(`(--request and --response print the bodies, --json the whole record)`));
  return lines.join('\n') + '\n';
}

/** `42s`, `5m`, `3h`, `2d`: the largest unit that fits, rounded down. */
export function formatAge(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m`;
  if (whole < 86_400) return `${Math.floor(whole / 3600)}h`;
  return `${Math.floor(whole / 86_400)}d`;
}

/** `512 B`, `1.5 KB`, `5.0 MB` (binary units, as the 20 MB limit is). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Pretty-printed when the text is JSON; as is otherwise (a partial body, the omitted marker). */
export function formatJsonText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2) + '\n';
  } catch {
    return text.endsWith('\n') ? text : text + '\n';
  }
}

import chalk from 'chalk';
import type { UsageGrouping, UsageReport, UsageRow } from '../log/aggregate-usage.js';
import type { RequestLogEntry } from '../log/request-log.js';

/** The usage table: one line per group and a total, numbers right-aligned; no cost where no price is known. */
export function formatUsageTable(report: UsageReport, by: UsageGrouping, options: { color: boolean }): string {
  const header = [by, 'requests', 'input', 'output', 'cached', 'cost'];
  const cells = (row: UsageRow, totalRow = false) => [
    row.key,
    formatCount(row.requests),
    formatCount(row.input_tokens),
    formatCount(row.output_tokens),
    formatCount(row.cached_tokens),
    row.cost_usd === null ? '-' : formatCost(row.cost_usd) + (totalRow && report.costIncomplete ? ' + ?' : ''),
  ];
  const lines = [header, ...report.rows.map((row) => cells(row)), cells(report.total, true)];
  const widths = header.map((_, column) => Math.max(...lines.map((line) => line[column].length)));
  const render = (line: string[]) => line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  const bold = options.color ? chalk.bold : (text: string) => text;
  const out = [bold(render(header)), ...lines.slice(1, -1).map(render), bold(render(lines.at(-1)!))];
  if (report.rows.length === 0) out.splice(1, 0, 'no requests in the log for this period');
  if (report.costIncomplete) out.push('- : no price known for this model (set one under "prices" in the config)');
  return `${out.join('\n')}\n`;
}

/** One entry as a line: time, status, route, timings, tokens, cost, and how it ended. */
export function formatLogLine(entry: RequestLogEntry, options: { color: boolean }): string {
  const paint = options.color;
  const status = paint ? (entry.status >= 400 ? chalk.red : chalk.green)(String(entry.status)) : String(entry.status);
  const route = entry.upstream === null ? `${entry.protocol} ${oneLine(entry.model)}` : `${entry.protocol} ${oneLine(entry.model)} → ${oneLine(entry.upstream)}`;
  const parts = [
    localTime(entry.time),
    status,
    route,
    entry.mode ?? 'local',
    `${entry.duration_ms}ms`,
    `in=${entry.input_tokens ?? '-'} out=${entry.output_tokens ?? '-'}${entry.cached_tokens ? ` cached=${entry.cached_tokens}` : ''}`,
    entry.cost_usd === null ? 'cost=-' : `cost=${formatCost(entry.cost_usd)}`,
    oneLine(entry.user),
  ];
  if (entry.interrupted_reason) parts.push(paint ? chalk.yellow(`interrupted=${entry.interrupted_reason}`) : `interrupted=${entry.interrupted_reason}`);
  if (entry.warnings.length > 0) parts.push(`warnings=${entry.warnings.length}`);
  parts.push(entry.request_id);
  return parts.join('  ');
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

function formatCost(cost: number): string {
  return `$${cost < 0.01 && cost > 0 ? cost.toFixed(6) : cost.toFixed(4)}`;
}

function localTime(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number, size = 2) => String(value).padStart(size, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The model and user are clients' text: a control character in them would forge a line. */
function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, '?');
}

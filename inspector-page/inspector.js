// The inspector page: plain DOM, no framework, no build step. Every text from a request goes in
// through textContent, never as HTML: bodies are what clients and upstreams sent.
const token = document.querySelector('meta[name="switchyard-page-token"]').content;
const KEY_STORAGE = 'switchyard-inspector-key';
const rows = new Map();
let selected;
let detailTimer;
let version = 0;
let feedAbort;
/** The gateway keeps this many requests; the page keeps no more, however long it stays open. */
let keep = 200;

const $ = (selector) => document.querySelector(selector);
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function headers(extra = {}) {
  const result = { 'x-switchyard-page-token': token, ...extra };
  const key = sessionStorage.getItem(KEY_STORAGE);
  if (key) result.authorization = `Bearer ${key}`;
  return result;
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers(options.headers) });
  if (response.status === 401) {
    askForKey('');
    throw new Error('a key is needed');
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return body;
}

function askForKey(message) {
  $('#key-form').hidden = false;
  $('main').hidden = true;
  $('#key-error').textContent = message;
}

$('#key-form form').addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY_STORAGE, $('#key-input').value.trim());
  $('#key-input').value = '';
  start();
});

// Formatting
const number = new Intl.NumberFormat();
const formatTokens = (value) => (value == null ? '–' : number.format(value));
const formatCost = (value) => (value == null ? '–' : value === 0 ? '$0' : `$${value < 0.01 ? value.toFixed(4) : value.toFixed(2)}`);
const formatMs = (value) => (value == null ? '–' : value < 1000 ? `${value} ms` : `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`);
const formatTime = (iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
// Recovery records count seconds since the epoch.
const recordDate = (seconds) => new Date(seconds < 1e12 ? seconds * 1000 : seconds);
const formatBytes = (value) => (value < 1024 ? `${value} B` : `${(value / 1024).toFixed(1)} kB`);
function pretty(text) {
  if (text == null) return '(none)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

// Requests
function statusCell(row) {
  if (row.live) return el('td', { class: 'status live', text: 'streaming' });
  return el('td', { class: `status ${row.status < 400 ? 'ok' : 'bad'}`, text: String(row.status) });
}

function rowElement(row) {
  const model = el('td', { class: 'model' }, row.model || '(none)');
  if (row.upstream) model.append(el('span', { class: 'arrow', text: '→' }), row.upstream);
  if (row.live) model.append(el('span', { class: 'mark live', text: `live ${formatBytes(row.response_chars ?? 0)}` }));
  if (row.interrupted_reason) model.append(el('span', { class: 'mark', title: 'Interrupted: kept as a recovery record', text: `interrupted: ${row.interrupted_reason}` }));
  if (row.resumed_from) model.append(el('span', { class: 'mark', title: 'Answered from the recovery record of an earlier, identical request', text: `resumed from ${row.resumed_from}` }));
  const tr = el(
    'tr',
    { 'data-id': row.request_id, onclick: () => openDetail(row.request_id) },
    el('td', { text: formatTime(row.time), title: row.time }),
    model,
    statusCell(row),
    el('td', { class: 'num', text: formatMs(row.duration_ms) }),
    el('td', { class: 'num', text: `${formatTokens(row.input_tokens)} / ${formatTokens(row.output_tokens)}` }),
    el('td', { class: 'num', text: formatCost(row.cost_usd) }),
    el('td', { text: row.protocol }),
    el('td', { text: row.user }),
  );
  if (row.request_id === selected) tr.classList.add('selected');
  return tr;
}

function matches(row) {
  const model = $('#filter-model').value;
  const status = $('#filter-status').value;
  const protocol = $('#filter-protocol').value;
  const user = $('#filter-user').value;
  if (model && row.model !== model && row.upstream !== model) return false;
  if (protocol && row.protocol !== protocol) return false;
  if (user && row.user !== user) return false;
  if (status === 'live' && !row.live) return false;
  if (status === 'ok' && (row.live || row.status >= 400)) return false;
  if (status === 'error' && (row.live || row.status < 400)) return false;
  if (status === 'interrupted' && !row.interrupted_reason) return false;
  return true;
}

function fillSelect(select, values) {
  const current = select.value;
  const known = new Set([...select.options].map((option) => option.value));
  for (const value of [...values].sort()) if (!known.has(value)) select.append(el('option', { value, text: value }));
  select.value = current;
}

function renderRequests(freshIds = new Set()) {
  const all = [...rows.values()].sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
  fillSelect($('#filter-model'), new Set(all.flatMap((row) => [row.model, row.upstream].filter(Boolean))));
  fillSelect($('#filter-protocol'), new Set(all.map((row) => row.protocol)));
  fillSelect($('#filter-user'), new Set(all.map((row) => row.user)));
  const shown = all.filter(matches);
  const body = $('#requests tbody');
  body.replaceChildren(
    ...shown.map((row) => {
      const tr = rowElement(row);
      if (freshIds.has(row.request_id)) tr.classList.add('fresh');
      return tr;
    }),
  );
  $('#requests-empty').hidden = shown.length > 0;
  $('#request-count').textContent = shown.length === all.length ? `${all.length} request(s)` : `${shown.length} of ${all.length} request(s)`;
}

function mergeRows(incoming) {
  const fresh = new Set();
  for (const row of incoming) {
    if (!rows.has(row.request_id)) fresh.add(row.request_id);
    rows.set(row.request_id, row);
  }
  if (rows.size > keep) {
    const oldestFirst = [...rows.values()].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
    for (const row of oldestFirst.slice(0, rows.size - keep)) if (row.request_id !== selected) rows.delete(row.request_id);
  }
  renderRequests(fresh);
  if (selected && incoming.some((row) => row.request_id === selected)) openDetail(selected, { keepScroll: true });
}

for (const id of ['#filter-model', '#filter-status', '#filter-protocol', '#filter-user']) $(id).addEventListener('change', () => renderRequests());

function facts(pairs) {
  const list = el('dl', { class: 'facts' });
  for (const [name, value] of pairs) list.append(el('dt', { text: name }), el('dd', { text: value }));
  return list;
}

async function openDetail(id, { keepScroll = false } = {}) {
  selected = id;
  clearTimeout(detailTimer);
  for (const tr of document.querySelectorAll('#requests tbody tr')) tr.classList.toggle('selected', tr.dataset.id === id);
  const panel = $('#detail');
  let detail;
  try {
    detail = await api(`/ui/api/requests/${encodeURIComponent(id)}`);
  } catch (error) {
    panel.hidden = false;
    panel.replaceChildren(el('p', { class: 'error', text: error.message }));
    return;
  }
  if (selected !== id) return;
  const { row } = detail;
  const scroll = panel.scrollTop;
  const close = el('button', { type: 'button', class: 'close', text: 'Close', onclick: () => { selected = undefined; clearTimeout(detailTimer); panel.hidden = true; renderRequests(); } });
  const children = [
    close,
    el('h2', { text: row.request_id }),
    facts([
      ['Time', new Date(row.time).toLocaleString()],
      ['Model asked', row.model || '(none)'],
      ['Answered by', row.upstream ? `${row.upstream} (${row.mode})` : '–'],
      ['Status', row.live ? 'streaming…' : String(row.status)],
      ['Protocol', `${row.protocol} ${row.endpoint}${row.stream ? ' (stream)' : ''}`],
      ['User', row.user],
      ['Time to first byte', formatMs(row.ttfb_ms)],
      ['Total', formatMs(row.duration_ms)],
      ['Tokens', `${formatTokens(row.input_tokens)} in (${formatTokens(row.cached_tokens)} cached) · ${formatTokens(row.output_tokens)} out (${formatTokens(row.reasoning_tokens)} reasoning)`],
      ['Cost', formatCost(row.cost_usd)],
    ]),
  ];
  if (detail.error) children.push(el('h3', { text: 'Error' }), el('p', { class: 'error', text: `${detail.error.status} ${detail.error.code}: ${detail.error.message}` }));
  if (detail.recovery) {
    children.push(el('h3', { text: 'Recovery' }), el('p', {}, el('a', { href: `#recovery/${encodeURIComponent(detail.recovery.request_id)}`, class: 'recovery-link', text: `Recovery record (${detail.recovery.state})`, onclick: (event) => { event.preventDefault(); showView('recoveries'); openRecovery(detail.recovery.request_id); } })));
  }
  children.push(el('h3', { text: `Attempts (${detail.attempts.length})` }));
  const attempts = el('ol', { class: 'attempts' });
  for (const attempt of detail.attempts) attempts.append(el('li', { text: `${attempt.provider}/${attempt.model} · ${attempt.mode} · ${formatMs(attempt.ms)}${attempt.status ? ` · upstream ${attempt.status}` : ''}${attempt.error ? ` · ${attempt.error}` : ''}` }));
  children.push(attempts);
  children.push(el('h3', { text: `Translation warnings (${detail.warnings.length})` }));
  if (detail.warnings.length > 0) {
    const list = el('ul', { class: 'warnings' });
    for (const warning of detail.warnings) list.append(el('li', { text: `${warning.type} ${warning.feature}${warning.details ? `: ${warning.details}` : ''}` }));
    children.push(list);
  } else children.push(el('p', { class: 'muted', text: 'None: everything asked was sent as asked.' }));
  children.push(
    el('div', { class: 'bodies' },
      el('div', {}, el('h3', { text: `Client request (${row.protocol})` }), el('pre', { class: 'client-request', text: pretty(detail.request_body) })),
      el('div', {}, el('h3', { text: row.mode === 'passthrough' ? 'Upstream request (passed through)' : row.mode === 'mock' ? 'Upstream request (none: a mock model)' : 'Upstream request (translated)' }), el('pre', { class: 'upstream-request', text: pretty(detail.upstream_request_body) })),
    ),
    el('h3', { text: row.live ? 'Response (streaming…)' : 'Response' }),
    el('pre', { class: 'response', text: pretty(detail.response_body) || '(nothing yet)' }),
  );
  panel.replaceChildren(...children);
  panel.hidden = false;
  if (keepScroll) panel.scrollTop = scroll;
  // A streaming response is read again while it is open, so the page shows it grow.
  if (row.live) detailTimer = setTimeout(() => openDetail(id, { keepScroll: true }), 1000);
}

// The live feed: SSE over fetch (EventSource cannot send the token and key headers).
async function connectFeed() {
  feedAbort?.abort();
  const abort = (feedAbort = new AbortController());
  const state = $('#feed-state');
  try {
    const response = await fetch(`/ui/api/feed?since=${version}`, { headers: headers(), signal: abort.signal });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    state.textContent = 'live';
    state.className = 'feed-state on';
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const record = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = record.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
        if (!data) continue;
        const message = JSON.parse(data);
        version = Math.max(version, message.version);
        mergeRows(message.rows);
      }
    }
  } catch (error) {
    if (abort.signal.aborted) return;
  }
  state.textContent = 'reconnecting…';
  state.className = 'feed-state off';
  setTimeout(connectFeed, 2000);
}

// Recoveries
let recoveries = [];
async function loadRecoveries() {
  const body = await api('/ui/api/recoveries');
  recoveries = body.items;
  const tbody = $('#recoveries tbody');
  tbody.replaceChildren(
    ...recoveries.map((item) =>
      el('tr', { 'data-id': item.request_id, onclick: () => openRecovery(item.request_id) },
        el('td', { text: recordDate(item.created_at).toLocaleString() }),
        el('td', { class: 'model', text: item.request_id }),
        el('td', { class: 'model', text: item.model ?? '–' }),
        el('td', { text: item.protocol ?? '–' }),
        el('td', { text: item.interrupted_reason }),
        el('td', {}, el('span', { class: item.state === 'draining' ? 'mark live' : 'mark', text: item.state })),
        el('td', { class: 'num', text: formatBytes(item.response_body_size ?? 0) }),
      ),
    ),
  );
  $('#recoveries-empty').hidden = recoveries.length > 0;
}

async function openRecovery(id) {
  const panel = $('#recovery-detail');
  for (const tr of document.querySelectorAll('#recoveries tbody tr')) tr.classList.toggle('selected', tr.dataset.id === id);
  let record;
  try {
    record = await api(`/ui/api/recoveries/${encodeURIComponent(id)}`);
  } catch (error) {
    panel.hidden = false;
    panel.replaceChildren(el('p', { class: 'error', text: error.message }));
    return;
  }
  const remove = el('button', { type: 'button', class: 'danger delete-recovery', text: 'Delete this record', onclick: async () => {
    await api('/ui/api/recoveries/delete', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request_id: id }) });
    panel.hidden = true;
    $('#recoveries-message').textContent = `Deleted ${id}.`;
    await loadRecoveries();
  } });
  panel.replaceChildren(
    el('button', { type: 'button', class: 'close', text: 'Close', onclick: () => { panel.hidden = true; } }),
    el('h2', { text: record.request_id }),
    facts([
      ['Created', recordDate(record.created_at).toLocaleString()],
      ['State', record.state],
      ['Reason', record.interrupted_reason],
      ['Model', record.model ?? '–'],
      ['Protocol', record.protocol ?? '–'],
      ...(record.error_message ? [['Error', record.error_message]] : []),
    ]),
    el('p', {}, remove),
    el('div', { class: 'bodies' },
      el('div', {}, el('h3', { text: 'Request' }), el('pre', { class: 'recovery-request', text: pretty(record.request.body_raw) })),
      el('div', {}, el('h3', { text: 'Response kept' }), el('pre', { class: 'recovery-response', text: pretty(record.response.body_raw) })),
    ),
  );
  panel.hidden = false;
}

$('#recoveries-refresh').addEventListener('click', () => loadRecoveries());
$('#recoveries-delete-all').addEventListener('click', () => {
  $('#recoveries-confirm-count').textContent = String(recoveries.length);
  $('#recoveries-confirm').hidden = false;
});
$('#recoveries-confirm-no').addEventListener('click', () => { $('#recoveries-confirm').hidden = true; });
$('#recoveries-confirm-yes').addEventListener('click', async () => {
  const result = await api('/ui/api/recoveries/delete', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ all: true, confirm: true }) });
  $('#recoveries-confirm').hidden = true;
  $('#recovery-detail').hidden = true;
  $('#recoveries-message').textContent = `Deleted ${result.deleted} record(s).`;
  await loadRecoveries();
});

// Usage
const SVG = 'http://www.w3.org/2000/svg';
const COLORS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#db2777', '#65a30d'];
function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

async function loadUsage(days) {
  for (const button of document.querySelectorAll('.range')) button.classList.toggle('active', button.dataset.days === String(days));
  const usage = await api(`/ui/api/usage?days=${days}`);
  const models = usage.by_model.map((entry) => entry.model);
  const color = (model) => COLORS[models.indexOf(model) % COLORS.length];
  const chart = $('#usage-chart');
  const width = chart.clientWidth || 800;
  const height = 260;
  const left = 56, bottom = 24, top = 10;
  chart.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const max = Math.max(1, ...usage.by_day.map((day) => day.input_tokens + day.output_tokens));
  const plotHeight = height - top - bottom;
  const slot = (width - left) / usage.by_day.length;
  const nodes = [];
  for (let step = 0; step <= 4; step += 1) {
    const y = top + plotHeight - (plotHeight * step) / 4;
    nodes.push(svg('line', { x1: left, x2: width, y1: y, y2: y, class: 'gridline' }));
    const label = svg('text', { x: left - 6, y: y + 4, 'text-anchor': 'end' });
    label.textContent = number.format(Math.round((max * step) / 4));
    nodes.push(label);
  }
  usage.by_day.forEach((day, index) => {
    const x = left + index * slot + slot * 0.15;
    let y = top + plotHeight;
    for (const model of models) {
      const cell = day.models[model];
      if (!cell) continue;
      const tokens = cell.input_tokens + cell.output_tokens;
      const barHeight = (plotHeight * tokens) / max;
      y -= barHeight;
      const bar = svg('rect', { x, y, width: Math.max(1, slot * 0.7), height: barHeight, fill: color(model), class: 'bar', 'data-day': day.day });
      const title = svg('title');
      title.textContent = `${day.day} · ${model}: ${number.format(cell.input_tokens)} in, ${number.format(cell.output_tokens)} out, ${formatCost(cell.cost_usd)}`;
      bar.append(title);
      nodes.push(bar);
    }
    if (usage.by_day.length <= 7 || index % 5 === 0 || index === usage.by_day.length - 1) {
      const label = svg('text', { x: x + slot * 0.35, y: height - 6, 'text-anchor': 'middle' });
      label.textContent = day.day.slice(5);
      nodes.push(label);
    }
  });
  chart.replaceChildren(...nodes);
  const swatch = (model) => {
    const node = el('i', { class: 'swatch' });
    node.style.background = color(model);
    return node;
  };
  $('#chart-legend').replaceChildren(...models.map((model) => el('span', {}, swatch(model), model)));
  $('#usage-models tbody').replaceChildren(
    ...usage.by_model.map((entry) =>
      el('tr', {},
        el('td', { class: 'model' }, swatch(entry.model), entry.model),
        el('td', { class: 'num', text: number.format(entry.requests) }),
        el('td', { class: 'num', text: formatTokens(entry.input_tokens) }),
        el('td', { class: 'num', text: formatTokens(entry.output_tokens) }),
        el('td', { class: 'num', text: formatTokens(entry.cached_tokens) }),
        el('td', { class: 'num', text: formatCost(entry.cost_usd) }),
      ),
    ),
  );
  const total = usage.by_day.reduce((sum, day) => ({ requests: sum.requests + day.requests, tokens: sum.tokens + day.input_tokens + day.output_tokens, cost: day.cost_usd == null ? sum.cost : (sum.cost ?? 0) + day.cost_usd }), { requests: 0, tokens: 0, cost: null });
  $('#usage-total').textContent = `${number.format(total.requests)} request(s), ${number.format(total.tokens)} tokens, ${formatCost(total.cost)} over ${days} days`;
}
for (const button of document.querySelectorAll('.range')) button.addEventListener('click', () => loadUsage(Number(button.dataset.days)));

// Views
function showView(name) {
  for (const tab of document.querySelectorAll('.tab')) tab.classList.toggle('active', tab.dataset.view === name);
  for (const view of document.querySelectorAll('.view')) view.hidden = view.id !== `view-${name}`;
  if (name === 'recoveries') loadRecoveries().catch(showError);
  if (name === 'usage') loadUsage(Number(document.querySelector('.range.active')?.dataset.days ?? 7)).catch(showError);
}
for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => showView(tab.dataset.view));
function showError(error) {
  $('#recoveries-message').textContent = error.message;
}

async function start() {
  try {
    const session = await api('/ui/api/session');
    keep = Math.max(1, session.keep);
  } catch (error) {
    if (!$('#key-form').hidden) {
      $('#key-error').textContent = sessionStorage.getItem(KEY_STORAGE) ? 'That key was refused.' : '';
      return;
    }
    throw error;
  }
  $('#key-form').hidden = true;
  $('main').hidden = false;
  const list = await api('/ui/api/requests');
  version = list.version;
  mergeRows(list.rows);
  connectFeed();
}
start();

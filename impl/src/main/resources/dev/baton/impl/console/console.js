/*
 * Baton operator console: plain ES2020, no dependencies, and no network access except this server's operator
 * endpoints. Every value from the server is set as text (textContent / attributes), never parsed as HTML, and the
 * page runs under a strict CSP: no inline script or style, charts are SVG elements built here.
 *
 * Stable hooks for browser tests:
 *   #login, #admin-key, #sign-in, #login-error   the login form (the only thing shown without a key) and its message
 *   #console                                     the main view, shown after the first successful refresh
 *   #status                                      status line (aria-live): action results, failed refreshes
 *   #updated                                     "updated hh:mm:ss" of the last successful refresh
 *   #pause (aria-pressed), #sign-out             pause/resume polling, forget the key
 *   [data-connection=NAME]                       one card per connection; [data-field=state] in it holds the API's
 *                                                state word (healthy, parked, ejected, probe_due, probing)
 *   [data-action=eject], [data-action=restore]   buttons in each card (restore acts at once: the API takes no body)
 *   #eject-dialog, #eject-reason, #eject-for, #eject-confirm, #eject-cancel, #eject-error   the eject form
 *   [data-route=NAME], [data-target=ROUTE/TARGET] chart blocks per route and per target
 *   [data-record=ID]                             one <details> per request record; its summary expands the attempts
 *   #f-connection, #f-outcome, #f-kind, #f-key   record filters (connection and outcome go to the server; failure
 *                                                kind and key are applied here to the records fetched)
 *   [data-budget=SCOPE:NAME]                     one budget; class "warn" at 80 % used or more
 *   #cluster                                     cluster block ("Single node" when the store is memory)
 */
'use strict';
(() => {
  const API = new URL('.', location.href); // the page is {path}/console, so this is {path}/
  const KEY_ITEM = 'baton.console.adminKey'; // sessionStorage: this tab only, gone when it closes
  const POLL_MS = 3000;
  const $ = (sel, root = document) => root.querySelector(sel);
  const ui = {
    data: null, paused: false, timer: 0, busy: false, again: false, shown: false, failed: false,
    open: new Set(), // ids of the expanded records, kept across refreshes
  };

  // ---- small helpers --------------------------------------------------------------------------------------

  /** Builds an element; string children become text nodes (never HTML); null/false children and attributes are skipped. */
  function h(tag, attrs, ...kids) {
    const el = tag.startsWith('svg:') ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
      : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? '' : String(v));
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid !== null && kid !== undefined && kid !== false) el.append(kid instanceof Node ? kid : String(kid));
    }
    return el;
  }
  const pad = (n) => String(n).padStart(2, '0');
  const clock = (d) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  function span(ms) {
    const s = Math.round(Math.abs(ms) / 1000);
    if (s < 60) return `${s}s`;
    if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
    if (s < 172800) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
    return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  }
  /** A local time (with its date when not today) and "in …" or "… ago"; the full instant in the title. */
  function when(iso) {
    if (!iso) return '—';
    const t = new Date(iso), d = t - Date.now();
    const day = t.toDateString() === new Date().toDateString() ? '' : `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} `;
    return h('time', { datetime: iso, title: iso }, `${day}${clock(t)} (${d >= 0 ? 'in ' + span(d) : span(d) + ' ago'})`);
  }
  const pct = (x) => (x === null || x === undefined || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(x > 0 && x < 0.1 ? 1 : 0)}%`);
  const ms = (v) => (v === null || v === undefined ? '—' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);
  const money = (v, cur) => `${!v ? '0' : v < 0.01 ? Number(v.toPrecision(2)) : v.toFixed(2)} ${cur || ''}`.trim();
  const sum = (xs) => xs.reduce((a, b) => a + (b || 0), 0);
  const note = (text) => h('p', { class: 'muted' }, text);
  const dl = (rows) => h('dl', { class: 'facts' }, rows.filter(Boolean).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));

  function status(text, kind) {
    const el = $('#status');
    el.textContent = text;
    el.className = 'status' + (kind ? ' ' + kind : '');
  }

  // ---- the API --------------------------------------------------------------------------------------------

  class AuthError extends Error {}

  /** Calls an operator endpoint with the admin key; 401/403 throw AuthError, other failures an Error with .status. */
  async function api(path, init = {}) {
    const key = sessionStorage.getItem(KEY_ITEM);
    if (!key) throw new AuthError('Sign in with the admin key.');
    const headers = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
    if (init.body) headers['Content-Type'] = 'application/json';
    const res = await fetch(new URL(path, API), { ...init, headers, cache: 'no-store' });
    let body = null;
    try { body = await res.json(); } catch { /* not JSON: the status says enough */ }
    const msg = body && body.error && body.error.message;
    if (res.status === 401 || res.status === 403) {
      throw new AuthError(res.status === 401 ? 'The server did not accept this key.' : (msg || 'This key may not use the operator endpoints.'));
    }
    if (!res.ok) throw Object.assign(new Error(`${path.split('?')[0]}: HTTP ${res.status}${msg ? ' — ' + msg : ''}`), { status: res.status });
    return body;
  }
  /** Endpoints a server may not have (an older Baton, or no cluster store): 404 gives null instead of failing. */
  const optional = (path) => api(path).catch((e) => { if (e.status === 404) return null; throw e; });

  function recordsPath() {
    const q = new URLSearchParams();
    // Kind and key are filtered here, so ask for more records when one of them is set.
    q.set('limit', $('#f-kind').value || $('#f-key').value ? '200' : '50');
    if ($('#f-connection').value) q.set('connection', $('#f-connection').value);
    if ($('#f-outcome').value) q.set('outcome', $('#f-outcome').value);
    return 'records?' + q;
  }

  // ---- polling --------------------------------------------------------------------------------------------

  async function refresh() {
    clearTimeout(ui.timer);
    if (ui.busy) { ui.again = true; return; }
    ui.busy = true;
    try {
      // Before the first success one call tries the key, so a wrong key costs one refused request, not five.
      const first = ui.shown ? null : await api('connections');
      const [connections, records, series, spend, cluster] = await Promise.all([
        first || api('connections'), api(recordsPath()), optional('console/series?minutes=60'), optional('console/spend'), optional('cluster'),
      ]);
      if (!sessionStorage.getItem(KEY_ITEM)) return; // signed out while the answers were on their way
      ui.data = { connections: connections.data || [], records: records.data || [], series, spend, cluster };
      render();
      if (!ui.shown) showConsole();
      $('#updated').textContent = `updated ${clock(new Date())}`;
      if (ui.failed) { ui.failed = false; status(''); }
    } catch (e) {
      if (e instanceof AuthError || !ui.shown) {
        signOut(e instanceof AuthError ? e.message : `Could not load the console: ${e.message}`);
      } else {
        ui.failed = true; // keep what is on screen, say it is stale
        status(`Update failed at ${clock(new Date())} (${e.message}); showing the last data.`, 'error');
      }
    } finally {
      ui.busy = false;
      if (ui.again) { ui.again = false; refresh(); } else schedule();
    }
  }
  function schedule() {
    clearTimeout(ui.timer);
    if (ui.shown && !ui.paused && !document.hidden) ui.timer = setTimeout(refresh, POLL_MS);
  }

  function showConsole() {
    ui.shown = true;
    $('#login').hidden = true;
    $('#console').hidden = false;
    $('#controls').hidden = false;
    status('');
  }
  /** Back to the login: forget the key and every rendered value, so nothing stays on the page without it. */
  function signOut(message) {
    sessionStorage.removeItem(KEY_ITEM);
    clearTimeout(ui.timer);
    ui.shown = false; ui.data = null; ui.open.clear();
    for (const id of ['connections', 'routes', 'records', 'spend', 'cluster']) $('#' + id).replaceChildren();
    for (const id of ['#f-connection', '#f-kind']) setOptions($(id), [], [['', 'any']]); // names seen with the key
    setOptions($('#f-key'), [], [['', 'any'], ['-', 'unnamed keys']]);
    $('#f-outcome').value = '';
    if ($('#eject-dialog').open) $('#eject-dialog').close();
    $('#console').hidden = true;
    $('#controls').hidden = true;
    $('#login').hidden = false;
    $('#updated').textContent = '';
    status('');
    const err = $('#login-error');
    err.textContent = message || '';
    err.hidden = !message;
    $('#admin-key').focus();
  }

  // ---- rendering ------------------------------------------------------------------------------------------

  /** Re-renders every section, keeping keyboard focus on the same control when it is rebuilt. */
  function render() {
    const focused = document.activeElement && document.activeElement.closest('[data-focus]');
    const key = focused && focused.dataset.focus;
    const d = ui.data;
    updateFilters(d);
    $('#connections').replaceChildren(...(d.connections.length ? d.connections.map(connectionCard) : [note('No connections configured.')]));
    $('#routes').replaceChildren(...routes(d.series, d.connections));
    $('#records').replaceChildren(recordList(d.records));
    $('#spend').replaceChildren(...spendView(d.spend));
    $('#cluster').replaceChildren(...clusterView(d.cluster));
    if (key) {
      const again = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
      if (again) again.focus();
    }
  }

  /** Keeps each select's options in step with the data, without losing what is selected. */
  function setOptions(select, values, fixed) {
    const want = [...fixed, ...values.map((v) => [v, v])];
    const have = [...select.options].map((o) => [o.value, o.textContent]);
    if (JSON.stringify(want) === JSON.stringify(have)) return;
    const chosen = select.value;
    select.replaceChildren(...want.map(([v, t]) => h('option', { value: v }, t)));
    select.value = want.some(([v]) => v === chosen) ? chosen : '';
  }
  function updateFilters(d) {
    setOptions($('#f-connection'), d.connections.map((c) => c.connection), [['', 'any']]);
    const kinds = d.connections.length ? Object.keys(d.connections[0].window?.failures || {}) : [];
    setOptions($('#f-kind'), kinds, [['', 'any']]);
    const keys = new Set(d.records.map((r) => r.caller).filter(Boolean));
    for (const k of d.spend?.by_key || []) if (k.name) keys.add(k.name);
    setOptions($('#f-key'), [...keys].sort(), [['', 'any'], ['-', 'unnamed keys']]);
  }

  // Connections -----------------------------------------------------------------------------------------------

  // A glyph per state as well as a colour, so the state never depends on colour alone (the word is there too).
  const GLYPH = { healthy: '✓', parked: '‖', ejected: '✕', probe_due: '?', probing: '↻' };

  function connectionCard(c) {
    const w = c.window || {};
    const fails = Object.entries(w.failures || {}).filter(([, n]) => n > 0);
    const inFlight = Object.entries(c.in_flight_by_model || {}).filter(([, n]) => n > 0);
    return h('article', { class: `card conn st-${c.state}`, 'data-connection': c.connection },
      h('div', { class: 'conn-head' },
        h('h3', {}, c.connection),
        h('span', { class: `badge st-${c.state}` }, h('span', { 'aria-hidden': 'true' }, GLYPH[c.state] || '•'), ' ',
          h('span', { 'data-field': 'state' }, c.state))),
      h('p', { class: 'muted small' }, `${c.provider} · ${(c.models || []).join(', ')}`),
      dl([
        c.out_since && ['Out since', when(c.out_since)],
        c.state === 'ejected' && ['Ejected by', `${c.ejected_by || '?'}${c.eject_reason ? ': ' + c.eject_reason : ''}`],
        c.ejected_until && ['Until', when(c.ejected_until)],
        c.parked_until && ['Parked', [`${c.parked_for || ''} until `, when(c.parked_until)]],
        ['Next probe', c.next_probe_at ? when(c.next_probe_at)
          : c.probe === 'request' ? 'the next request (probe=request)' : 'none due'],
        c.consecutive_failures > 0 && ['Failures in a row', String(c.consecutive_failures)],
        [`Last ${Math.round((w.seconds || 900) / 60)} min`,
          `${w.requests || 0} requests, ${w.fallbacks || 0} fell back (${pct(w.fallback_rate || 0)})`],
        ['Failed attempts', fails.length ? fails.map(([k, n]) => `${k} ${n}`).join(', ') : 'none'],
        ['In flight', `${c.in_flight || 0}${inFlight.length ? ' (' + inFlight.map(([m, n]) => `${m} ${n}`).join(', ') + ')' : ''}`],
        ['Probes', probes(c.probes || [])],
      ]),
      h('div', { class: 'actions' },
        h('button', { type: 'button', 'data-action': 'eject', 'data-name': c.connection, 'data-focus': `eject:${c.connection}`,
          class: 'danger', 'aria-label': `Eject ${c.connection}` }, 'Eject…'),
        h('button', { type: 'button', 'data-action': 'restore', 'data-name': c.connection, 'data-focus': `restore:${c.connection}`,
          'aria-label': `Restore ${c.connection}` }, 'Restore')));
  }

  /** The last background probes (newest first in the API) as squares, oldest left, with a text summary. */
  function probes(list) {
    if (!list.length) return 'none yet';
    const shown = list.slice(0, 10).reverse();
    const bad = list.filter((p) => p.outcome !== 'ok').length;
    const svg = h('svg:svg', { viewBox: `0 0 ${shown.length * 12} 10`, class: 'probes', role: 'img',
      'aria-label': `${list.length} probes, ${bad} failed` },
    shown.map((p, i) => h('svg:rect', { x: i * 12, y: 0, width: 10, height: 10, rx: 2, class: p.outcome === 'ok' ? 'ok' : 'bad' },
      h('svg:title', {}, `${clock(new Date(p.started_at))} ${p.model}: ${p.outcome} ${p.http_status || ''} ${ms(p.latency_ms)}`))));
    const last = list[0];
    return [svg, ` last ${last.outcome}${last.http_status ? ' ' + last.http_status : ''}, ${ms(last.latency_ms)}`,
      last.restored ? ', restored' : ''];
  }

  // Routes and targets ----------------------------------------------------------------------------------------

  /**
   * Lays the API's sparse minutes (minutes without requests are left out) on a fixed axis of the last hour:
   * a minute before the series began (a restart) is null, drawn as nothing; a later minute without data is 0.
   */
  function axis(series) {
    const step = (series.minute_seconds || 60) * 1000, n = series.minutes || 60;
    const end = Math.floor(Date.parse(series.now) / step) * step, start = end - (n - 1) * step;
    const since = Math.floor(Date.parse(series.since) / step) * step;
    return {
      n, start, step,
      lay(points, pick, empty = 0) {
        const out = Array.from({ length: n }, (_, i) => (start + i * step < since ? null : empty));
        for (const p of points || []) {
          const i = Math.round((Date.parse(p.t) - start) / step);
          if (i >= 0 && i < n) out[i] = pick(p);
        }
        return out;
      },
    };
  }

  /** A small inline chart; lines are [{values, cls, name}], nulls leave gaps. bars: one series drawn as bars. */
  function chart(title, lines, { bars = false, fmt = String, ax } = {}) {
    const n = lines[0].values.length, H = 30;
    const all = lines.flatMap((l) => l.values).filter((v) => v !== null);
    const max = Math.max(...all, 0);
    const y = (v) => (max > 0 ? H - 1 - (v / max) * (H - 3) : H - 1);
    const peak = (l) => {
      const vs = l.values.filter((v) => v !== null);
      return `${l.name ? l.name + ' ' : ''}${vs.length ? fmt(Math.max(...vs)) : '—'}`;
    };
    const svg = h('svg:svg', { viewBox: `0 0 ${n} ${H}`, preserveAspectRatio: 'none', class: 'chart', role: 'img',
      'aria-label': `${title}, last hour, peak: ${lines.map(peak).join(', ')}` },
    h('svg:line', { x1: 0, x2: n, y1: H - 0.5, y2: H - 0.5, class: 'base' }));
    for (const l of lines) {
      if (bars) {
        l.values.forEach((v, i) => v > 0 && svg.append(h('svg:rect', { x: i + 0.1, width: 0.8, y: y(v), height: H - 1 - y(v), class: l.cls },
          h('svg:title', {}, `${clock(new Date(ax.start + i * ax.step)).slice(0, 5)}: ${fmt(v)}`))));
        continue;
      }
      // Runs of consecutive values become one path; a lone point a short flat stroke one minute wide.
      let d = '';
      l.values.forEach((v, i) => {
        if (v === null) return;
        const prev = i > 0 && l.values[i - 1] !== null, next = i < n - 1 && l.values[i + 1] !== null;
        d += prev ? ` L${i + 0.5} ${y(v)}` : next ? ` M${i + 0.5} ${y(v)}` : ` M${i} ${y(v)} L${i + 1} ${y(v)}`;
      });
      if (d) svg.append(h('svg:path', { d: d.trim(), class: `line ${l.cls}` }));
    }
    return h('figure', { class: 'spark' },
      h('figcaption', {}, h('span', {}, title),
        h('span', { class: 'muted' }, 'peak ', lines.map((l) => h('span', { class: `key ${l.cls}` }, peak(l))))),
      svg);
  }

  function routes(series, connections) {
    if (series === null) return [note('This server does not offer the per-minute series (GET console/series).')];
    const ax = axis(series);
    const list = series.routes || [];
    const out = list.length ? list.map((r) => routeBlock(r, ax, connections))
      : [note('No requests in the last hour.')];
    // Connections of a model requested by name balance in pools with no route.
    const byName = shareRows(connections, null);
    if (byName) out.push(h('div', { class: 'card' }, h('h3', {}, 'Models requested by name'), byName));
    return out;
  }

  function routeBlock(r, ax, connections) {
    const s = r.series || [];
    const req = sum(s.map((p) => p.requests)), fb = sum(s.map((p) => p.fallbacks)), err = sum(s.map((p) => p.errors));
    const rate = (f) => (p) => (p.requests ? f(p) / p.requests : null);
    const two = (f, pick) => [{ name: 'p50', cls: 's1', values: ax.lay(s, (p) => pick(p).p50, null) },
      { name: 'p95', cls: 's2', values: ax.lay(s, (p) => pick(p).p95, null) }];
    const ttft = two(ms, (p) => p.ttft_ms || {});
    return h('div', { class: 'card route', 'data-route': r.route },
      h('h3', {}, r.route),
      h('p', { class: 'muted small' }, `${req} requests, ${pct(req ? fb / req : null)} fell back, ${pct(req ? err / req : null)} failed`),
      h('div', { class: 'charts' },
        chart('Requests / min', [{ cls: 's1', values: ax.lay(s, (p) => p.requests) }], { bars: true, ax }),
        chart('Fallback rate', [{ cls: 's2', values: ax.lay(s, rate((p) => p.fallbacks), null) }], { fmt: pct }),
        chart('Error rate', [{ cls: 'bad', values: ax.lay(s, rate((p) => p.errors), null) }], { fmt: pct }),
        chart('Latency', two(ms, (p) => p.latency_ms || {}), { fmt: ms }),
        ttft.some((l) => l.values.some((v) => v !== null))
          ? chart('Time to first token', ttft, { fmt: ms })
          : h('figure', { class: 'spark' }, h('figcaption', {}, 'Time to first token'), note('no streams in the last hour'))),
      (r.targets || []).length ? h('h4', {}, 'Targets') : null,
      (r.targets || []).map((t) => {
        const ts = t.series || [];
        const att = sum(ts.map((p) => p.attempts)), fail = sum(ts.map((p) => p.failures));
        return h('div', { class: 'target', 'data-target': `${r.route}/${t.target}` },
          h('div', {}, h('strong', {}, t.target),
            h('span', { class: 'muted small' }, ` ${att} attempts, ${fail} failed (${pct(att ? fail / att : null)}), ${sum(ts.map((p) => p.served))} served`)),
          chart('Attempts / min', [{ name: 'all', cls: 's1', values: ax.lay(ts, (p) => p.attempts) }, { name: 'failed', cls: 'bad', values: ax.lay(ts, (p) => p.failures) }],
            { bars: true, ax }));
      }),
      shareRows(connections, r.route));
  }

  /** Balancing shares of a route's tiers (route null: models requested by name), from the connections' shares. */
  function shareRows(connections, route) {
    const rows = connections.flatMap((c) => (c.shares || []).filter((s) => s.route === route).map((s) => ({ ...s, connection: c.connection })));
    if (!rows.length) return null;
    rows.sort((a, b) => a.tier - b.tier || b.share - a.share);
    return h('div', { class: 'scroll' }, h('table', {},
      h('caption', {}, 'Balancing shares'),
      h('thead', {}, h('tr', {}, ['Tier', 'Connection / model', 'Balance', 'Share', 'Errors', 'Latency'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.map((s) => h('tr', {},
        h('td', {}, String(s.tier ?? '')), h('td', {}, `${s.connection} / ${s.model}`), h('td', {}, s.balance),
        h('td', {}, meter(s.share), ' ', pct(s.share)), h('td', {}, pct(s.error_rate)), h('td', {}, ms(s.latency_ms)))))));
  }

  /** A 0–1 bar as SVG (geometry as attributes: no style attribute, which the CSP forbids). */
  function meter(fraction, parts) {
    const segs = parts || [{ v: fraction, cls: 's1' }];
    let x = 0;
    return h('svg:svg', { viewBox: '0 0 100 8', preserveAspectRatio: 'none', class: 'meter', 'aria-hidden': 'true' },
      h('svg:rect', { x: 0, y: 0, width: 100, height: 8, class: 'track' }),
      segs.map((p) => {
        const w = Math.max(0, Math.min(100 - x, (p.v || 0) * 100));
        const r = h('svg:rect', { x, y: 0, width: w, height: 8, class: p.cls });
        x += w;
        return r;
      }));
  }

  // Records ---------------------------------------------------------------------------------------------------

  function recordList(list) {
    const kind = $('#f-kind').value, key = $('#f-key').value;
    const shown = list.filter((r) => (!kind || (r.attempts || []).some((a) => a.kind === kind))
      && (!key || (key === '-' ? !r.caller : r.caller === key)));
    if (!shown.length) return note(list.length ? 'No request matches these filters.' : 'No requests recorded yet.');
    return h('ul', { class: 'records' }, shown.map((r) => {
      const d = h('details', { 'data-record': r.id, open: ui.open.has(r.id) },
        h('summary', { 'data-focus': `record:${r.id}` },
          h('time', { datetime: r.started_at, title: r.started_at }, clock(new Date(r.started_at))),
          h('span', { class: `badge out-${r.status}` }, r.status, r.http_status && r.http_status !== 200 ? ` ${r.http_status}` : ''),
          h('span', { class: 'what' }, r.route_name || r.model_requested || '?',
            r.connection ? h('span', { class: 'muted' }, ` → ${r.connection}/${r.model}`) : ''),
          h('span', { class: 'muted small' }, `${(r.attempts || []).length} att · ${ms(r.latency_ms)}${r.caller ? ' · ' + r.caller : ''}`)),
        h('div', { class: 'record-body' },
          h('p', { class: 'muted small' }, `${r.id}${r.stream ? ' · stream' : ''}${r.first_token_ms != null ? ' · first token ' + ms(r.first_token_ms) : ''}`,
            r.usage ? ` · ${r.usage.total_tokens} tokens` : '', r.cost != null ? ` · ${money(r.cost, r.cost_currency)}` : '',
            r.error_code ? ` · ${r.error_code}` : '', ` · key: ${r.caller || 'unnamed'}`),
          h('ol', { class: 'attempts' }, (r.attempts || []).map((a) => h('li', {},
            h('strong', {}, a.connection), ` ${a.model} `,
            h('span', { class: `badge ${a.kind ? 'out-error' : 'out-ok'}` }, a.kind || 'ok'),
            ` ${a.http_status || '—'} · ${ms(a.latency_ms)}${a.retry ? ' · retry ' + a.retry : ''}${a.abandoned ? ' · abandoned' : ''}`,
            a.message ? h('div', { class: 'muted small msg' }, a.message) : null))),
          (r.skipped || []).length ? h('p', { class: 'muted small' }, 'Skipped: ', r.skipped.map((s) => `${s.target} (${s.reason})`).join('; ')) : null));
      d.addEventListener('toggle', () => (d.open ? ui.open.add(r.id) : ui.open.delete(r.id)));
      return h('li', {}, d);
    }));
  }

  // Cost ------------------------------------------------------------------------------------------------------

  function spendView(sp) {
    if (sp === null) return [note('This server does not offer spend figures (GET console/spend).')];
    const cur = sp.currency;
    const table = (title, rows) => h('div', { class: 'scroll' }, h('table', {},
      h('caption', {}, title),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col', class: 'num' }, 'Requests'), h('th', { scope: 'col', class: 'num' }, 'Cost'))),
      h('tbody', {}, rows.length ? [...rows].sort((a, b) => b.cost - a.cost).map((r) => h('tr', {},
        h('td', {}, r.name ?? 'unnamed keys'), h('td', { class: 'num' }, String(r.requests)), h('td', { class: 'num' }, money(r.cost, cur))))
        : h('tr', {}, h('td', { colspan: 3, class: 'muted' }, 'nothing yet')))));
    const budgets = (sp.budgets || []).map((b) => {
      const warn = b.used >= 0.8;
      const left = Math.max(0, b.limit - b.spent - (b.held || 0));
      return h('div', { class: `budget${warn ? ' warn' : ''}`, 'data-budget': `${b.scope}:${b.name}` },
        h('div', { class: 'budget-head' }, h('strong', {}, `${b.scope} ${b.name}`), h('span', {}, `${warn ? '⚠ ' : ''}${pct(b.used)} used`)),
        meter(null, [{ v: b.spent / b.limit, cls: warn ? 'warn' : 's1' }, { v: (b.held || 0) / b.limit, cls: 'held' }]),
        h('p', { class: 'muted small' }, `${money(b.spent, b.currency)} spent, ${money(b.held || 0, b.currency)} held, `,
          `${money(left, b.currency)} left of ${money(b.limit, b.currency)} per ${b.period} · resets `, when(b.resets_at)));
    });
    return [
      h('p', { class: 'muted small' }, `${sp.day} (UTC)${sp.since && sp.since.slice(0, 10) === sp.day ? ', counted since ' + clock(new Date(sp.since)) : ''}`),
      h('div', { class: 'grid' }, table('By route', sp.by_route || []), table('By model', sp.by_model || []), table('By key', sp.by_key || [])),
      h('h3', {}, 'Budgets'),
      budgets.length ? h('div', { class: 'grid' }, budgets) : note('No budgets configured.'),
    ];
  }

  // Cluster ---------------------------------------------------------------------------------------------------

  function clusterView(c) {
    if (!c || c.store === 'memory') return [note('Single node (memory store): ejections stay on this server.')];
    // The API lists changes, not nodes: a node's last contact is its newest change this node made or learned.
    const nodes = new Map([[c.node, null]]);
    for (const ch of c.changes || []) {
      const t = ch.learned_at || ch.at;
      if (!nodes.get(ch.node) || t > nodes.get(ch.node)) nodes.set(ch.node, t);
    }
    const st = c.staleness_ms || {};
    return [
      dl([
        ['This node', c.node], ['Store', c.store],
        ['Connected', c.connected ? ['yes, since ', when(c.connected_since)] : ['no, since ', when(c.disconnected_since)]],
        ['Last resync', when(c.last_resync)],
        ['Staleness', `${st.learned || 0} learned, p50 ${ms(st.p50)}, p99 ${ms(st.p99)}, max ${ms(st.max)}`],
      ]),
      h('h3', {}, 'Nodes seen'),
      h('ul', { class: 'plain' }, [...nodes].map(([n, t]) => h('li', {}, h('strong', {}, n), n === c.node ? ' (this node)' : '',
        ' · last change ', t ? when(t) : 'none'))),
      h('h3', {}, 'Last changes'),
      (c.changes || []).length ? h('ul', { class: 'plain small' }, c.changes.slice(0, 10).map((ch) => h('li', {},
        when(ch.at), ` ${ch.node}: ${ch.connection} ${ch.event}`, ch.lag_ms != null ? ` (learned after ${ms(ch.lag_ms)})` : '')))
        : note('No changes yet.'),
    ];
  }

  // ---- actions --------------------------------------------------------------------------------------------

  const dialog = $('#eject-dialog');

  function openEject(name) {
    dialog.dataset.connection = name;
    $('#eject-name').textContent = name;
    $('#eject-reason').value = '';
    $('#eject-error').hidden = true;
    dialog.showModal();
    $('#eject-reason').focus();
  }

  async function act(name, verb, body) {
    const path = `connections/${encodeURIComponent(name)}/${verb}`;
    return api(path, { method: 'POST', body: body ? JSON.stringify(body) : undefined });
  }

  $('#eject-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = dialog.dataset.connection, confirm = $('#eject-confirm');
    const body = { for: $('#eject-for').value.trim(), reason: $('#eject-reason').value.trim() };
    confirm.disabled = true;
    try {
      await act(name, 'eject', body);
      dialog.close();
      status(`Ejected ${name} for ${body.for}.`);
      refresh();
    } catch (err) {
      if (err instanceof AuthError) { signOut(err.message); return; }
      $('#eject-error').textContent = err.message;
      $('#eject-error').hidden = false;
    } finally {
      confirm.disabled = false;
    }
  });
  $('#eject-cancel').addEventListener('click', () => dialog.close());
  // The card was rebuilt while the dialog was open: put focus back on the new Eject button.
  dialog.addEventListener('close', () => {
    const btn = document.querySelector(`[data-focus="${CSS.escape('eject:' + dialog.dataset.connection)}"]`);
    if (btn) btn.focus();
  });

  $('#connections').addEventListener('click', async (e) => {
    const btn = e.target.closest('button[data-action]');
    if (!btn) return;
    const name = btn.dataset.name;
    if (btn.dataset.action === 'eject') { openEject(name); return; }
    btn.disabled = true;
    try {
      await act(name, 'restore');
      status(`Restored ${name}: back in rotation now.`);
      refresh();
    } catch (err) {
      if (err instanceof AuthError) signOut(err.message);
      else status(`Restore of ${name} failed: ${err.message}`, 'error');
    } finally {
      btn.disabled = false;
    }
  });

  $('#filters').addEventListener('change', () => refresh());
  $('#filters').addEventListener('submit', (e) => e.preventDefault());

  $('#pause').addEventListener('click', () => {
    ui.paused = !ui.paused;
    $('#pause').setAttribute('aria-pressed', String(ui.paused));
    $('#pause').textContent = ui.paused ? 'Resume' : 'Pause';
    status(ui.paused ? 'Live updates paused.' : 'Live updates resumed.');
    if (ui.paused) clearTimeout(ui.timer); else refresh();
  });
  $('#sign-out').addEventListener('click', () => signOut('Signed out.'));
  document.addEventListener('visibilitychange', () => { if (!document.hidden && ui.shown && !ui.paused) refresh(); });

  $('#login').addEventListener('submit', (e) => {
    e.preventDefault();
    const key = $('#admin-key').value.trim();
    if (!key) return;
    sessionStorage.setItem(KEY_ITEM, key);
    $('#admin-key').value = '';
    $('#login-error').hidden = true;
    $('#login').hidden = true; // until the first answer: the console appears only once the key has worked
    status('Signing in…');
    refresh();
  });

  // A key from earlier in this tab: try it straight away, still showing nothing until it has worked.
  if (sessionStorage.getItem(KEY_ITEM)) {
    $('#login').hidden = true;
    status('Signing in…');
    refresh();
  } else {
    $('#admin-key').focus();
  }
})();

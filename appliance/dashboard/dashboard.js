// The operator dashboard (docs/operations.md, Dashboard). No build step: plain script, uPlot beside it.
// The operator token comes in the address's fragment (`#token=svcop_...`, never sent to a server),
// moves to this tab's sessionStorage and leaves the address bar; every data request carries it as
// `Authorization: Bearer`. Data is written with textContent only.
(function () {
  'use strict';
  var root = document.getElementById('dash');
  var api = root.getAttribute('data-api');
  var KEY = 'svc-operator-token';
  var REFRESH_MS = 5000;
  var selected = null;
  var charts = {};
  var timer = null;

  function takeToken() {
    var match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    if (match) {
      try {
        sessionStorage.setItem(KEY, decodeURIComponent(match[1]));
      } catch {
        /* private mode: kept in memory below */
      }
      history.replaceState(null, '', location.pathname + location.search);
      return decodeURIComponent(match[1]);
    }
    try {
      return sessionStorage.getItem(KEY);
    } catch {
      return null;
    }
  }
  var token = takeToken();

  function setState(state) {
    root.setAttribute('data-state', state);
  }

  function get(path) {
    return fetch(api + path, { headers: token ? { authorization: 'Bearer ' + token } : {}, cache: 'no-store' }).then(
      function (res) {
        if (res.status === 401) {
          var e = new Error('refused');
          e.refused = true;
          throw e;
        }
        return res.json().then(function (body) {
          if (!res.ok) throw new Error((body && body.error && body.error.message) || 'HTTP ' + res.status);
          return body;
        });
      },
    );
  }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function row(cells) {
    var tr = document.createElement('tr');
    cells.forEach(function (c) {
      var td = document.createElement('td');
      if (c instanceof Node) td.appendChild(c);
      else td.textContent = c === null || c === undefined ? '—' : String(c);
      tr.appendChild(td);
    });
    return tr;
  }
  function fill(tableId, rows, empty) {
    var body = document.querySelector('#' + tableId + ' tbody');
    body.textContent = '';
    if (rows === null) {
      body.appendChild(row([el('em', 'unavailable (database)')]));
      return;
    }
    if (!rows.length) {
      body.appendChild(row([el('em', empty)]));
      return;
    }
    rows.forEach(function (r) {
      body.appendChild(r);
    });
  }
  function ago(iso) {
    if (!iso) return 'never';
    var s = Math.max(0, Math.round((new Date().getTime() - Date.parse(iso)) / 1000));
    if (s < 120) return s + ' s ago';
    if (s < 7200) return Math.round(s / 60) + ' min ago';
    if (s < 172800) return Math.round(s / 3600) + ' h ago';
    return iso.slice(0, 10);
  }
  function bytes(n) {
    if (n === null || n === undefined) return null;
    var units = ['B', 'kB', 'MB', 'GB', 'TB'];
    var i = 0;
    while (n >= 1000 && i < units.length - 1) {
      n /= 1000;
      i++;
    }
    return (i ? n.toFixed(1) : n) + ' ' + units[i];
  }
  function duration(seconds) {
    if (seconds === null || seconds === undefined) return null;
    var s = Math.round(seconds);
    return (
      Math.floor(s / 3600) +
      ':' +
      String(Math.floor((s % 3600) / 60)).padStart(2, '0') +
      ':' +
      String(s % 60).padStart(2, '0')
    );
  }
  function badge(text, kind) {
    return el('span', text, 'badge ' + kind);
  }

  function renderHealth(h) {
    var b = document.getElementById('health-badge');
    b.textContent = h.healthy ? 'healthy' : 'unhealthy';
    b.className = h.healthy ? 'ok' : 'bad';
    document.getElementById('health').setAttribute('data-healthy', String(h.healthy));
    var parts = document.getElementById('parts');
    parts.textContent = '';
    var names = { database: 'PostgreSQL', ingest: 'nginx (RTMP ingest, CDN, player site)' };
    parts.appendChild(badge('API: answering', 'ok'));
    Object.keys(h.parts).forEach(function (p) {
      var b2 = badge((names[p] || p) + ': ' + (h.parts[p] ? 'ok' : 'down'), h.parts[p] ? 'ok' : 'bad');
      b2.setAttribute('data-part', p);
      b2.setAttribute('data-up', String(h.parts[p]));
      parts.appendChild(b2);
    });
    var c = h.certificate;
    if (c) {
      var words = { valid: 'valid', expiring: 'expiring', renewal_failing: 'renewal failing', expired: 'EXPIRED' };
      var text = 'TLS certificate: ' + words[c.state] + ', ' + c.days_left + ' days left (' + c.not_after + ')';
      var b3 = badge(text + (c.last_error ? ': ' + c.last_error : ''), c.state === 'valid' ? 'ok' : 'bad');
      b3.setAttribute('data-part', 'certificate');
      b3.setAttribute('data-state', c.state);
      parts.appendChild(b3);
    }
    fill(
      'jobs',
      h.jobs &&
        h.jobs.map(function (j) {
          var state = j.late ? badge('late', 'bad') : j.running ? badge('running', 'info') : badge('ok', 'ok');
          var tr = row([
            j.name,
            state,
            ago(j.last_success_at),
            j.lag_seconds + ' s (every ' + j.period_seconds + ' s)',
            j.last_duration_ms === null ? null : j.last_duration_ms + ' ms',
            j.last_error,
          ]);
          tr.setAttribute('data-job', j.name);
          return tr;
        }),
      'no jobs have run yet',
    );
  }

  // A live stream's restreaming outputs: one line each under its row; an errored one in red with its reason.
  function outputsRow(s) {
    var list = el('ul', null, 'outputs');
    s.outputs.forEach(function (o) {
      var kind = o.status === 'errored' ? 'bad' : o.status === 'active' ? 'ok' : 'info';
      var item = el('li', null, o.status === 'errored' ? 'errored' : '');
      item.appendChild(el('strong', o.name || o.host));
      item.appendChild(el('code', o.url));
      item.appendChild(badge(o.enabled ? o.status : 'disabled', o.enabled ? kind : 'info'));
      if (o.status === 'errored' && o.last_error) item.appendChild(el('span', o.last_error, 'error'));
      if (o.status === 'active' && o.connected_at) item.appendChild(el('span', 'since ' + ago(o.connected_at)));
      item.appendChild(el('span', bytes(o.bytes_sent) + ' sent'));
      item.setAttribute('data-output-id', o.id);
      item.setAttribute('data-status', o.status);
      list.appendChild(item);
    });
    var td = el('td');
    td.colSpan = 8;
    td.appendChild(el('small', 'Restreaming to'));
    td.appendChild(list);
    var tr = el('tr', null, 'outputs-row');
    tr.appendChild(td);
    tr.setAttribute('data-outputs-of', s.id);
    return tr;
  }

  function renderStreams(streams) {
    var rows = [];
    (streams || []).forEach(function (s) {
      rows.push(streamRow(s));
      if (s.outputs.length) rows.push(outputsRow(s));
    });
    fill('streams', streams && rows, 'no streams yet');
    if (!selected && streams) {
      var live =
        streams.filter(function (s) {
          return s.status === 'live';
        })[0] || streams[0];
      if (live) showDetail(live.id, live.name || live.id);
    }
  }

  function streamRow(s) {
    var thumb;
    if (s.thumbnail_url) {
      thumb = el('img');
      thumb.src = s.thumbnail_url + '?t=' + Math.floor(new Date().getTime() / 20000);
      thumb.alt = '';
      thumb.width = 96;
      thumb.height = 54;
    } else thumb = el('span', '', 'nothumb');
    var name = el('div');
    var link = el('a', s.name || s.id);
    link.href = s.embed_url;
    link.target = '_blank';
    link.rel = 'noopener';
    name.appendChild(link);
    name.appendChild(el('small', s.id));
    var ing = s.ingest;
    var warnings = [];
    if (ing && ing.limit_warning) warnings.push(ing.limit_warning);
    if (ing && ing.keyframe_warning) warnings.push('keyframes');
    var status = badge(
      s.status + (s.end_reason ? ' (' + s.end_reason + ')' : ''),
      s.status === 'live' ? 'live' : 'info',
    );
    var tr = row([
      thumb,
      name,
      s.account_name,
      status,
      ing && ing.kbps !== null ? ing.kbps + ' kbps' + (ing.width ? ' · ' + ing.width + '×' + ing.height : '') : null,
      ing && ing.keyframe_interval_seconds !== null ? ing.keyframe_interval_seconds + ' s' : null,
      warnings.length ? badge(warnings.join(', '), 'bad') : '',
      s.viewers_now,
    ]);
    tr.setAttribute('data-stream-id', s.id);
    tr.setAttribute('data-status', s.status);
    tr.tabIndex = 0;
    if (s.id === selected) tr.classList.add('selected');
    tr.addEventListener('click', function () {
      select(s.id, s.name || s.id);
    });
    tr.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') select(s.id, s.name || s.id);
    });
    return tr;
  }

  function renderRecordings(recordings) {
    fill(
      'recordings',
      recordings &&
        recordings.map(function (r) {
          var tr = row([
            r.stream_name || r.stream_id,
            r.account_id,
            badge(r.status, r.status === 'failed' ? 'bad' : r.status === 'ready' ? 'ok' : 'info'),
            duration(r.duration_seconds),
            bytes(r.bytes),
            r.ready_at && ago(r.ready_at),
            r.delete_at && r.delete_at.slice(0, 10),
          ]);
          tr.setAttribute('data-recording', r.stream_id);
          return tr;
        }),
      'no recordings yet',
    );
  }

  function renderWebhooks(endpoints) {
    fill(
      'webhooks',
      endpoints &&
        endpoints.map(function (e) {
          var failing = e.failed + e.retrying > 0;
          var answer = e.last_attempt_at
            ? (e.last_status_code ? 'HTTP ' + e.last_status_code : e.last_error || 'no answer') +
              ', ' +
              ago(e.last_attempt_at)
            : null;
          var tr = row([
            el('code', e.url),
            e.account_id,
            e.enabled ? 'yes' : 'no',
            e.succeeded,
            failing && e.failed ? badge(String(e.failed), 'bad') : e.failed,
            failing && e.retrying ? badge(String(e.retrying), 'bad') : e.retrying,
            answer,
          ]);
          tr.setAttribute('data-endpoint-id', e.id);
          tr.setAttribute('data-failing', String(failing));
          if (failing) tr.classList.add('failing');
          return tr;
        }),
      'no webhook endpoints',
    );
  }

  function renderEdges(edges) {
    fill(
      'edges',
      edges &&
        edges.map(function (e) {
          var name = el('div');
          name.appendChild(el('span', e.name));
          name.appendChild(el('small', e.id));
          var tr = row([
            name,
            e.state === 'down' ? badge('down', 'bad') : e.state,
            e.address,
            e.cache_hit_ratio === null ? '' : Math.round(e.cache_hit_ratio * 100) + '%',
            bytes(e.bytes_served),
            e.log_lag_seconds === null ? '' : e.log_lag_seconds + ' s',
            e.last_seen_at ? ago(e.last_seen_at) : '',
          ]);
          tr.setAttribute('data-edge-id', e.id);
          tr.setAttribute('data-state', e.state);
          return tr;
        }),
      'no edges: every viewer is served by this machine (svc edges add)',
    );
  }

  function renderAccounts(accounts) {
    fill(
      'accounts',
      accounts &&
        accounts.map(function (a) {
          var name = el('div');
          name.appendChild(el('span', a.name));
          name.appendChild(el('small', a.id));
          var balance = el('span', a.balance_usd, 'balance');
          var tr = row([
            name,
            a.state,
            a.billing_mode,
            balance,
            a.available_usd,
            a.balance_warning ? badge(a.balance_warning, 'bad') : '',
          ]);
          tr.setAttribute('data-account-id', a.id);
          return tr;
        }),
      'no accounts yet',
    );
  }

  // At least the last five minutes: one point alone would otherwise spread the axis over years.
  function xRange(xs) {
    var max = xs.length ? xs[xs.length - 1] : new Date().getTime() / 1000;
    var min = xs.length ? xs[0] : max;
    return max - min < 300 ? { min: max - 300, max: max + 5 } : { min: min, max: max };
  }

  // uPlot: time in seconds on x; one chart per element, rebuilt only when its width changes.
  function chart(id, label, xs, ys, color) {
    var target = document.getElementById(id);
    target.setAttribute('data-points', String(xs.length));
    var data = [xs, ys];
    var width = Math.max(280, Math.min(560, target.parentNode.clientWidth - 8));
    if (!charts[id] || charts[id].width !== width) {
      if (charts[id]) charts[id].plot.destroy();
      target.textContent = '';
      var opts = {
        width: width,
        height: 200,
        legend: { show: true },
        series: [{}, { label: label, stroke: color, width: 2, fill: color + '22', spanGaps: false }],
        axes: [{}, { size: 56 }],
        scales: {
          x: { time: true },
          y: {
            range: function (u, min, max) {
              return [0, Math.max(1, max * 1.15)];
            },
          },
        },
      };
      charts[id] = { plot: new uPlot(opts, data, target), width: width };
    } else {
      charts[id].plot.setData(data);
    }
    charts[id].plot.setScale('x', xRange(xs));
  }

  function showDetail(id, title) {
    selected = id;
    document.getElementById('detail').hidden = false;
    document.getElementById('detail-title').textContent = title;
    document.querySelectorAll('#streams tbody tr').forEach(function (tr) {
      tr.classList.toggle('selected', tr.getAttribute('data-stream-id') === id);
    });
  }
  function select(id, title) {
    showDetail(id, title);
    loadSeries().catch(function () {
      /* the next refresh tries again */
    });
  }

  function loadSeries() {
    if (!selected || typeof uPlot === 'undefined') return Promise.resolve();
    var id = selected;
    return get('/streams/' + id + '/series').then(function (s) {
      if (id !== selected) return;
      var t = function (iso) {
        return Date.parse(iso) / 1000;
      };
      chart(
        'ingest-chart',
        'kbit/s',
        s.ingest.map(function (p) {
          return t(p.at);
        }),
        s.ingest.map(function (p) {
          return p.kbps;
        }),
        '#2563eb',
      );
      // The CDN's count when it has one (every player), else the hosted player's; the live estimate last.
      var minutes = s.cdn.length
        ? s.cdn.map(function (p) {
            return [t(p.minute), p.viewers];
          })
        : s.player.map(function (p) {
            return [t(p.minute), p.watching];
          });
      if (s.viewers_now !== null) minutes.push([new Date().getTime() / 1000, s.viewers_now]);
      chart(
        'viewers-chart',
        'viewers',
        minutes.map(function (p) {
          return p[0];
        }),
        minutes.map(function (p) {
          return p[1];
        }),
        '#16a34a',
      );
    });
  }

  function refresh() {
    if (!token) {
      refused();
      return;
    }
    get('/overview')
      .then(function (o) {
        document.getElementById('refused').hidden = true;
        var problem = document.getElementById('problem');
        problem.hidden = o.unavailable.length === 0;
        problem.textContent = o.unavailable.length
          ? 'Not shown while the database does not answer: ' + o.unavailable.join(', ') + '.'
          : '';
        renderHealth(o.health);
        renderStreams(o.streams);
        renderRecordings(o.recordings);
        renderWebhooks(o.webhooks);
        renderEdges(o.edges);
        renderAccounts(o.accounts);
        document.getElementById('updated').textContent = 'updated ' + new Date(o.generated_at).toLocaleTimeString();
        return loadSeries();
      })
      .then(
        function () {
          setState('ready');
        },
        function (err) {
          if (err.refused) return refused();
          var problem = document.getElementById('problem');
          problem.hidden = false;
          problem.textContent = 'The appliance does not answer (' + err.message + '); retrying.';
          setState('error');
        },
      )
      .then(function () {
        if (root.getAttribute('data-state') !== 'refused') timer = setTimeout(refresh, REFRESH_MS);
      });
  }

  // A wrong or rotated token: nothing stays on screen, and the token is forgotten.
  function refused() {
    try {
      sessionStorage.removeItem(KEY);
    } catch {
      /* nothing kept */
    }
    token = null;
    clearTimeout(timer);
    document.querySelectorAll('section').forEach(function (s) {
      s.hidden = true;
    });
    document.getElementById('health-badge').textContent = 'refused';
    document.getElementById('health-badge').className = 'bad';
    document.getElementById('refused').hidden = false;
    setState('refused');
  }

  refresh();
})();

/*
 * svc hosted player. Plain browser JavaScript, no build step; loaded with `defer` by
 * templates/player/page.njk. The page carries the first embed read (#svc-embed) and the hashed
 * hls.js address (data-hls); this script keeps `data-state` on #svc-player current, plays the
 * stream with hls.js (native HLS only where hls.js cannot run), re-reads the embed and reports
 * viewer beats as the spec's reporting rule says. A viewer token after `#vt=` opens a viewer
 * session: members-only streams play from the viewer's personal address (renewed before it runs
 * out), and beats carry the session token so attendance lists the viewer.
 */
(() => {
  'use strict';

  /*
   * The client's site puts the viewer token in the fragment (never sent to a server), and a
   * moderator link carries its moderator token there (`#mod=`). It leaves the address bar before
   * anything else runs, so no bookmark, shared link or later reader of `location.href` sees it;
   * other fragment parameters stay. A moderator token wins over a viewer token.
   */
  function takeToken() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (!params.has('vt') && !params.has('mod')) return null;
    const taken = params.get('mod')
      ? { kind: 'mod', token: params.get('mod') }
      : { kind: 'vt', token: params.get('vt') };
    params.delete('vt');
    params.delete('mod');
    const rest = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
    return taken.token ? taken : null;
  }
  const viewerToken = takeToken();

  const root = document.getElementById('svc-player');

  /*
   * hls.js's targets for the stream's latency mode come with the page (`data-tuning`): the
   * `LATENCY` table in src/domains/streams/model.ts says what each means and why it is set so. A
   * page without them gets standard's (test/player/page.test.ts keeps `STANDARD` equal to the
   * table's). hls.js estimates the live edge as the newest piece's end plus the time since it saw
   * the playlist advance, so a playlist read late (hls.js reloads once per piece, at a phase set by
   * when the page opened) made one page load's delay up to a piece longer than another's:
   * `edgeLoader` sees each advance within 0.2 s instead. Pieces longer than the mode's (a publisher
   * with keyframes further apart) raise the target to keep `margin`; each stall adds 1 s more
   * (hls.js `liveSyncOnStallIncrease`, at most one piece). `lowLatencyMode` only matters for LL-HLS
   * parts, which our playlists do not have, and it is what enables the playback-rate catch-up
   * (`maxLiveSyncPlaybackRate` is ignored without it). Measured: docs/decisions.md, "Low-latency mode".
   */
  const STANDARD = { liveSyncDuration: 4.5, liveMaxLatencyDuration: 12, initialLiveManifestSize: 1, margin: 0.5 };
  let MODE = root.dataset.tuning ? JSON.parse(root.dataset.tuning) : STANDARD;
  /** A channel page carries every mode's targets (`data-tunings`): its next stream may be in the other mode. */
  const TUNINGS = root.dataset.tunings ? JSON.parse(root.dataset.tunings) : null;
  /**
   * The start is placed by the first playlist read's age (`X-Playlist-Age`, see `edgeLoader`). Without
   * it (a CDN in front that drops the header) the read's age is unknown and the start may be up to a
   * piece further back than the target: the player catches up at up to 1.5× (a few seconds; a seek
   * would show as a stall and a skip), then corrects at up to 1.15×.
   */
  const START_CATCH_UP_RATE = 1.5;
  const CATCH_UP_RATE = 1.15;
  const hlsConfig = () => ({
    liveSyncDuration: MODE.liveSyncDuration,
    liveMaxLatencyDuration: MODE.liveMaxLatencyDuration,
    // Until the start is caught up (see `watchdog`), then CATCH_UP_RATE.
    maxLiveSyncPlaybackRate: START_CATCH_UP_RATE,
    lowLatencyMode: true,
    backBufferLength: 10,
    maxBufferLength: 20,
    enableWorker: true,
    // An embed in a small frame does not need (nor pay for) the top quality.
    capLevelToPlayerSize: true,
    // One piece is enough to start: at go-live the start waits until the target fits in what is
    // listed (`edgeLoader`'s `started`), so the first piece plays with the usual buffer.
    initialLiveManifestSize: MODE.initialLiveManifestSize,
    // Benchmarks and tests may try other values (set before this script runs).
    ...window.svcPlayerConfig,
  });
  let HLS_CONFIG = hlsConfig();
  /** Channel pages: the shown stream's mode, for the playback that starts next. */
  function tuneFor(mode) {
    if (!TUNINGS || !TUNINGS[mode] || root.dataset.latency === mode) return;
    MODE = TUNINGS[mode];
    HLS_CONFIG = hlsConfig();
    root.dataset.latency = mode;
  }
  /** Seconds behind the edge the player aims for. */
  const targetLatency = () => (hls && hls.targetLatency) || HLS_CONFIG.liveSyncDuration;
  /**
   * The target for pieces of these lengths (seconds, oldest first): longer pieces than the mode's
   * (a publisher with keyframes further apart) raise it to keep the margin at the buffer's low point.
   */
  function targetFor(durations) {
    const longest = Math.max(0, ...durations.slice(-3));
    return Math.max(
      HLS_CONFIG.liveSyncDuration,
      Math.min(longest + MODE.margin, HLS_CONFIG.liveMaxLatencyDuration - 2),
    );
  }

  /** How often a playlist is read again while its next piece is due but not listed yet. */
  const EDGE_POLL_MS = 200;
  /** hls.js's reloads go this long before the next piece is due, and wait for it. */
  const EDGE_LEAD_MS = 300;

  /**
   * A pending page reads the embed this often (at most; the read says 5 s), through the player
   * site's one-second cache: the API still sees about one read a second per stream, however many
   * pages wait, and a page learns of the start within about two seconds (docs/decisions.md,
   * "Instant start").
   */
  const PENDING_POLL_SECONDS = 1;
  /**
   * Live but not playable yet (the first pieces follow the publisher's connection by 2-5 s): the
   * master playlist is read this often until it exists, a static file (or its 404) at the CDN.
   * The start waits for the target to fit in the first pieces anyway (0.5-1 s after they are
   * listed), so a shorter interval would not start sooner.
   */
  const PLAYABLE_POLL_MS = 400;
  const PLAYABLE_WAIT_MS = 30000;

  /** Seconds without progress before the embed is read again (the stream may have ended). */
  const STALL_CHECK_SECONDS = 4;
  const IDLE_MS = 3000;
  const MAX_RESTARTS = 5;
  const BEAT_SETTLE_MS = 500;

  const $ = (id) => document.getElementById(id);
  const video = $('svc-video');
  const status = $('svc-status');
  const qualityButton = $('svc-quality');
  const qualityMenu = $('svc-quality-menu');
  /**
   * A channel page (`data-channel`) carries the channel embed read and follows the channel: it
   * shows the stream the read names, and another one when the read names another (`show`), without
   * reloading. A channel without any stream is shown as waiting.
   */
  const carried = JSON.parse($('svc-embed').textContent);
  let channel = carried.object === 'channel_embed' ? carried : null;
  const noStream = (c) => ({
    object: 'embed',
    id: null,
    status: 'pending',
    title: c.name,
    playback_url: null,
    poll_after_seconds: c.poll_after_seconds,
    beacon: null,
    access: 'public',
    poster_url: null,
  });
  const streamOf = (c) => c.stream || noStream(c);
  let embed = channel ? streamOf(channel) : carried;
  const apiOf = (e) => `/api/embed/${encodeURIComponent(e.id)}`;
  let api = apiOf(embed);
  /** Counts `show`s: work started for a stream the page no longer shows stops there. */
  let generation = 0;

  let state = root.dataset.state;
  /** Within loading/playing: `playing`, `paused` (by the viewer or refused autoplay) or `buffering`. */
  let playback = 'playing';
  /** `hls`, `native` or null. */
  let engine = null;
  let hls = null;
  /** The playlist watch of the current hls.js (edgeLoader). */
  let edge = null;
  /** The address hls.js was given. */
  let sourceUrl = null;
  let starting = false;
  /** The browser can play neither way: no retry will help. */
  let unsupported = false;
  let playlistEnded = false;
  let drainTimer;

  const backoff = (n) => Math.min(15000, 1000 * 2 ** Math.max(0, n - 1)) * (0.8 + Math.random() * 0.4);
  /** `members`: no token; `refused`, `removed`, `access-ended`: the viewer's session or address was refused. */
  const REFUSALS = {
    invalid_viewer_token: 'refused',
    invalid_request: 'refused',
    viewer_removed: 'removed',
    viewer_access_ended: 'access-ended',
  };
  const terminal = (s) =>
    s === 'ended' ||
    s === 'unavailable' ||
    s === 'closed' ||
    s === 'members' ||
    s === 'error' ||
    Object.values(REFUSALS).includes(s);

  // ---------------------------------------------------------------- state

  const MESSAGES = {
    loading: 'Loading the live stream',
    playing: 'Playing live',
    paused: 'Paused',
    buffering: 'Buffering',
  };

  function announce(text) {
    if (text && status.textContent !== text) status.textContent = text;
  }

  function messageOf(s) {
    if (s === 'playing' && replay.active) return 'Playing the replay';
    const el = root.querySelector(`[data-for="${s}"]`);
    return el ? el.textContent : MESSAGES[s];
  }

  function setState(next) {
    if (next === state) return;
    state = next;
    root.dataset.state = next;
    announce(messageOf(next));
    if (terminal(next)) {
      stopPlayback();
      personal.stop();
      closeMenu(false);
    }
    if (next === 'playing') idle.wake();
    // A channel may have its next stream already: asked now, not at the next poll.
    if (channel && next === 'ended') poll.schedule(1);
    beats.changed();
    chat.update();
  }

  function setPlayback(next) {
    if (next === playback) return;
    playback = next;
    root.dataset.playback = next;
    $('svc-play').setAttribute('aria-label', next === 'paused' ? 'Play' : 'Pause');
    if (state === 'playing') announce(MESSAGES[next]);
    if (next !== 'playing') idle.wake();
    beats.changed();
  }

  // ---------------------------------------------------------------- embed

  const poll = {
    timer: undefined,
    failures: 0,
    lastAt: 0,
    schedule(seconds) {
      clearTimeout(this.timer);
      if (seconds !== null && seconds !== undefined) this.timer = setTimeout(() => void this.refresh(), seconds * 1000);
    },
    /** Read the embed now unless it was read moments ago (stalls and errors call this often). */
    soon() {
      if (Date.now() - this.lastAt > 5000) void this.refresh();
    },
    async refresh() {
      clearTimeout(this.timer);
      this.lastAt = Date.now();
      let retryAfter = 0;
      try {
        const url = channel ? `/api/embed/channels/${encodeURIComponent(channel.id)}` : api;
        const res = await fetch(url, { credentials: 'omit', headers: { accept: 'application/json' } });
        // The stream is gone (deleted, or never was): nothing more to wait for.
        if (res.status === 404) return setState('unavailable');
        if (!res.ok) {
          retryAfter = Number(res.headers.get('retry-after')) || 0;
          throw new Error(`embed read: HTTP ${res.status}`);
        }
        const next = await res.json();
        this.failures = 0;
        if (channel) follow(next);
        else applyEmbed(next);
        chat.update();
        this.schedule(
          channel ? pollAfter({ ...streamOf(next), poll_after_seconds: next.poll_after_seconds }) : pollAfter(next),
        );
      } catch {
        this.failures++;
        this.schedule(Math.min(60, Math.max(retryAfter, backoff(this.failures) / 1000)));
      }
    },
  };

  const pollAfter = (e) =>
    e.status === 'pending' && e.poll_after_seconds
      ? Math.min(e.poll_after_seconds, PENDING_POLL_SECONDS)
      : e.poll_after_seconds;

  /** Channel mode: the channel read names the stream to show. */
  function follow(next) {
    channel = next;
    if (next.latency_mode) tuneFor(next.latency_mode);
    const stream = streamOf(next);
    if (stream.id === embed.id) applyEmbed(stream);
    else show(stream);
  }

  /** Channel mode: another stream (one started, or the shown one ended and another is next). */
  function show(next) {
    generation++;
    stopPlayback();
    beats.stop();
    chat.stop();
    chat.reset();
    Object.assign(chat, { ended: false, settings: null, lastEventId: '', visible: false });
    chat.render();
    clearTimeout(personal.timer);
    Object.assign(personal, { url: null, firstToken: null, refusal: null, failures: 0 });
    clearTimeout(viewer.timer);
    Object.assign(viewer, { session: null, refused: null, failures: 0, opening: !!viewer.token });
    embed = next;
    api = apiOf(next);
    playlistEnded = false;
    starting = false;
    restart.count = 0;
    const title = $('svc-title');
    if (title) title.textContent = next.title || channel.name || '';
    if (next.poster_url) video.poster = next.poster_url;
    else video.removeAttribute('poster');
    // The screen for the new stream (applyEmbed moves on from there, as at a page load).
    setState(next.status === 'live' ? 'loading' : next.status === 'pending' ? 'waiting' : next.status);
    if (viewer.token) viewer.first = viewer.open();
    applyEmbed(next);
    beats.send();
    chat.update();
  }

  function applyEmbed(next) {
    embed = next;
    beats.changed();
    const live = next.status === 'live';
    if (next.access === 'viewer_token' && (live || next.status === 'pending' || next.replay)) {
      if (!viewer.token) return setState('members');
      if (viewer.refused) return setState(viewer.refused);
    }
    if (next.status === 'pending') {
      // `members` or a refusal here: the viewer has (another) token now.
      if (!engine && (!terminal(state) || state === 'members' || Object.values(REFUSALS).includes(state)))
        setState('waiting');
    } else if (live) {
      if (!engine && !starting && !unsupported && state !== 'ended') void startPlayback();
    } else if (next.status === 'ended' && next.replay) {
      replay.start();
    } else if (next.status === 'ended') {
      replay.stop();
      endWhenDrained();
    } else {
      setState(next.status);
    }
  }

  // ---------------------------------------------------------------- beats

  /** 16 url-safe characters: one id per page load, nothing else identifies the viewer. */
  function randomId() {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => alphabet[b & 63]).join('');
  }

  const beats = {
    s: randomId(),
    // Drawn once; six decimals keep it below 1 and short in the address.
    u: Math.floor(Math.random() * 1e6) / 1e6,
    /** The periodic beat; undefined while not reporting. */
    timer: undefined,
    /** A state change waiting to be reported. */
    changeTimer: undefined,
    lastAt: 0,
    lastSt: null,
    sent: [],
    /** `w` waiting, `p` playing, `z` paused by the viewer, `b` buffering; null: not a viewer now. */
    st() {
      if (state === 'waiting') return 'w';
      if (state === 'loading') return 'b';
      if (state !== 'playing') return null;
      return playback === 'paused' ? 'z' : playback === 'buffering' ? 'b' : 'p';
    },
    /**
     * With a session every player reports (the session's beacon, for attendance), and a page that
     * is also one of the embed's sampled reporters keeps the embed's interval when it is shorter
     * (the viewer counts expect it). The embed's beacon still says whether the stream is open.
     */
    rule() {
      const shared = embed.beacon;
      const own = viewer.session && viewer.session.beacon;
      if (!shared || !own) return shared;
      return this.u < shared.rate && shared.interval_seconds < own.interval_seconds ? shared : own;
    },
    reporting() {
      // A token's first beat waits for its session: the same page is then not counted anonymous first.
      const rule = this.rule();
      return !viewer.opening && !!rule && this.u < rule.rate && this.st() !== null;
    },
    stop() {
      clearTimeout(this.timer);
      clearTimeout(this.changeTimer);
      this.timer = undefined;
    },
    send() {
      this.stop();
      if (!this.reporting()) return;
      const st = this.st();
      this.lastAt = Date.now();
      this.lastSt = st;
      this.sent.push(st);
      const t = viewer.session ? `&t=${encodeURIComponent(viewer.session.session_token)}` : '';
      fetch(`${api}/beat?s=${this.s}&st=${st}&u=${this.u}${t}`, {
        method: 'POST',
        keepalive: true,
        credentials: 'omit',
      }).catch(() => {});
      const jitter = 0.9 + Math.random() * 0.2;
      this.timer = setTimeout(() => this.send(), this.rule().interval_seconds * 1000 * jitter);
    },
    /**
     * A new state is reported promptly but at most once a second, and only once it has held for
     * half a second: a blip of buffering during a quality switch is not a stall worth counting.
     * The period restarts from each beat.
     */
    changed() {
      clearTimeout(this.changeTimer);
      if (!this.reporting()) return this.stop();
      const due = () => this.timer === undefined || this.st() !== this.lastSt;
      if (!due()) return;
      this.changeTimer = setTimeout(
        () => due() && this.send(),
        Math.max(BEAT_SETTLE_MS, this.lastAt + 1000 - Date.now()),
      );
    },
  };

  // ---------------------------------------------------------------- viewer session

  const json = { 'content-type': 'application/json', accept: 'application/json' };

  /** Server time minus ours (the API's Date header): expiry times are the server's clock. */
  function serverOffset(res) {
    const at = Date.parse(res.headers.get('date') || '');
    return Number.isFinite(at) ? at - Date.now() : 0;
  }

  async function errorOf(res) {
    try {
      return (await res.json()).error || {};
    } catch {
      return {};
    }
  }

  /** Waiting time for a retry: the longer of our backoff and the API's Retry-After. */
  function retryDelay(n, res) {
    const after = res ? Number(res.headers.get('retry-after')) || 0 : 0;
    return Math.max(after * 1000, backoff(n));
  }

  /** Says why the viewer cannot watch (members-only streams only; a public stream plays anyway). */
  function refuse(code, message) {
    const next = REFUSALS[code] || 'refused';
    const notice = root.querySelector('[data-for="refused"]');
    if (next === 'refused' && message && notice) notice.textContent = `Your viewer link was refused: ${message}`;
    viewer.refused = next;
    if (embed.access === 'viewer_token' && (embed.status === 'live' || embed.status === 'pending' || embed.replay))
      setState(next);
  }

  const viewer = {
    token: viewerToken && viewerToken.token,
    /** `vt` a viewer token (`POST /session`), `mod` a moderator link's token (`POST /mod/session`). */
    kind: viewerToken && viewerToken.kind,
    /** The session object of `POST /session`, or null. */
    session: null,
    /** Until the first answer to the session request: beats wait for it. */
    opening: !!viewerToken,
    /** The refusal state once shown: the viewer stays there. */
    refused: null,
    failures: 0,
    timer: undefined,
    /** The first attempt (playback of a members-only stream waits for it). */
    first: null,
    async open() {
      clearTimeout(this.timer);
      let res = null;
      try {
        const [path, body] =
          this.kind === 'mod'
            ? ['mod/session', { moderator_token: this.token }]
            : ['session', { viewer_token: this.token }];
        res = await fetch(`${api}/${path}`, {
          method: 'POST',
          credentials: 'omit',
          headers: json,
          body: JSON.stringify(body),
        });
        if (res.ok) {
          const session = await res.json();
          this.opened(session, serverOffset(res));
          return;
        }
      } catch {
        // The network, or a body that is not the session: try again below.
      }
      const error = res && res.status < 500 && res.status !== 429 ? await errorOf(res) : {};
      if (res && res.status === 404) {
        this.settled();
        return setState('unavailable');
      }
      if (REFUSALS[error.code]) {
        // On a public stream the viewer watches anonymously; only the chat says a moderator link failed.
        this.settled();
        if (this.kind === 'mod')
          chat.fail(`Your moderator link was refused${error.message ? `: ${error.message}` : ''}`);
        return refuse(error.code, error.message);
      }
      this.failures++;
      this.timer = setTimeout(() => void this.open(), retryDelay(this.failures, res));
      this.settled();
    },
    opened(session, offset) {
      this.session = session;
      this.failures = 0;
      if (session.playback) personal.set(session.playback, offset);
      this.settled(true);
      // A retry that succeeded after playback gave up waiting for it.
      if (embed.access === 'viewer_token' && state === 'loading' && !engine && !starting)
        void (replay.active ? replay.load() : startPlayback());
    },
    /** The first answer (or failure) came: beats start, with `t` when there is a session; the chat too. */
    settled(force) {
      if (!this.opening && !force) return;
      this.opening = false;
      beats.send();
      chat.update();
    },
  };

  /**
   * The viewer's personal playback address on a members-only stream:
   * `{cdn}/<hash>.<expiry>/<vsn>/<str>/master.m3u8` (or `{cdn}/<str>/master.m3u8?svc=<hash>.<expiry>.<vsn>`
   * with a CDN in front). Renewed at 60% of its life; a renewal changes only `<hash>.<expiry>`, and
   * every request hls.js makes from then on is rewritten to the newest prefix or token (see
   * `loader`), so playback never reloads.
   */
  /** `/<vsn>/<str>/` (a replay's: `/<vsn>/_replay/<str>/`): what every personal address has after its prefix. */
  const PERSONAL_PATH = /\/vsn_[A-Za-z0-9]+\/(?:_replay\/)?str_[A-Za-z0-9]+\//;
  /** `svc=<hash>.<expiry>.<vsn>`: a personal address in the query token form (a CDN in front). */
  const PERSONAL_QUERY = /([?&]svc=)[A-Za-z0-9_-]+\.[0-9]+\.vsn_[A-Za-z0-9]+/;

  const personal = {
    url: null,
    /** The query form's first token (`PERSONAL_QUERY`'s match), what hls.js sees in every playlist. */
    firstToken: null,
    /** When the current address stops working, on our clock. */
    expiresAt: 0,
    /** A refusal to show once the current address runs out (`viewer_removed`...). */
    refusal: null,
    failures: 0,
    timer: undefined,
    set(playback, offset) {
      this.url = playback.url;
      this.expiresAt = Date.parse(playback.expires_at) - offset;
      this.failures = 0;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.renew(), Math.max(1000, (this.expiresAt - Date.now()) * 0.6));
      // Safari's own HLS cannot be told another prefix: it is given the new address (a short reload).
      if (engine === 'native') {
        video.src = this.url;
        play();
      }
    },
    fresh() {
      return !!this.url && this.expiresAt - Date.now() > 3000;
    },
    /** `url` under the current address's prefix and session (a new token opens a new session). */
    rewrite(url) {
      const token = this.url && PERSONAL_QUERY.exec(this.url);
      if (token) return url.replace(PERSONAL_QUERY, (_, sep) => sep + token[0].slice(token[1].length));
      const from = PERSONAL_PATH.exec(url);
      const to = this.url && PERSONAL_PATH.exec(this.url);
      return from && to ? this.url.slice(0, to.index + to[0].length) + url.slice(from.index + from[0].length) : url;
    },
    /**
     * hls.js's own loader, asking for every playlist and segment under the current prefix. In the
     * query form a playlist lists its entries with the token it was asked with; hls.js is handed
     * them with the first token instead, so an entry keeps one address across renewals (hls.js
     * takes a segment whose address changed for another one, and playback stalled once a renewal
     * had come) and every request is still made with the newest token.
     */
    loader(Hls) {
      const rewrite = (url) => this.rewrite(url);
      const first = () => (this.firstToken ??= this.url && PERSONAL_QUERY.exec(this.url));
      return class PersonalLoader extends Hls.DefaultConfig.loader {
        load(context, config, callbacks) {
          context.url = rewrite(context.url);
          const token = first();
          if (!token || typeof context.type !== 'string') return super.load(context, config, callbacks);
          const stable = token[0].slice(token[1].length);
          super.load(context, config, {
            ...callbacks,
            onSuccess: (response, stats, ctx, details) => {
              if (typeof response.data === 'string')
                response = { ...response, data: response.data.replace(/([?&]svc=)[A-Za-z0-9_.-]+/g, `$1${stable}`) };
              callbacks.onSuccess(response, stats, ctx, details);
            },
          });
        }
      };
    },
    /** A fresh address, renewed first if needed; resolves when there is one or it cannot be had now. */
    async ready() {
      await viewer.first;
      if (viewer.session && !this.fresh()) await this.renew();
    },
    async renew() {
      clearTimeout(this.timer);
      if (!viewer.session) return;
      if (this.refusal) return this.showRefusal();
      let res = null;
      try {
        res = await fetch(`${api}/playback`, {
          method: 'POST',
          credentials: 'omit',
          headers: json,
          body: JSON.stringify({ session_token: viewer.session.session_token }),
        });
        if (res.ok) {
          const playback = await res.json();
          this.set(playback, serverOffset(res));
          return;
        }
      } catch {
        // Tried again below, before the current address runs out.
      }
      const error = res && res.status < 500 && res.status !== 429 ? await errorOf(res) : {};
      // The stream is over: the embed read says so and ends the player.
      if (error.code === 'stream_ended') return poll.soon();
      if (res && res.status === 404) return setState('unavailable');
      if (REFUSALS[error.code]) {
        // The current address keeps working until it runs out; then the viewer is told why.
        this.refusal = error;
        if (!engine || !this.fresh()) return this.showRefusal();
        this.timer = setTimeout(() => this.showRefusal(), this.expiresAt - Date.now());
        return;
      }
      this.failures++;
      const left = this.expiresAt - Date.now();
      this.timer = setTimeout(
        () => void this.renew(),
        left > 0 ? Math.min(retryDelay(this.failures, res), Math.max(1000, left / 3)) : retryDelay(this.failures, res),
      );
    },
    showRefusal() {
      clearTimeout(this.timer);
      refuse(this.refusal.code, this.refusal.message);
    },
    stop() {
      if (!this.refusal) clearTimeout(this.timer);
    },
  };

  // ---------------------------------------------------------------- playback

  const hasMse = () => !!(window.ManagedMediaSource || window.MediaSource);
  let hlsScript = null;

  /** hls.js only when it can be used: a waiting, ended or members page never downloads it. */
  function loadHls() {
    if (window.Hls) return Promise.resolve(window.Hls);
    if (!hlsScript) {
      hlsScript = new Promise((resolve, reject) => {
        const el = document.createElement('script');
        el.src = root.dataset.hls;
        el.onload = () => (window.Hls ? resolve(window.Hls) : reject(new Error('hls.js did not define Hls')));
        el.onerror = () => {
          hlsScript = null;
          el.remove();
          reject(new Error('hls.js did not load'));
        };
        document.head.appendChild(el);
      });
    }
    return hlsScript;
  }

  /** The address to play: the viewer's own on a members-only stream, else the embed's. */
  const members = () => embed.access === 'viewer_token';
  const playbackUrl = () => (members() ? personal.url : embed.playback_url);

  async function startPlayback() {
    if (!members() && !embed.playback_url) return setState('error');
    const shown = generation;
    starting = true;
    setState('loading');
    let Hls = null;
    try {
      [Hls] = await Promise.all([hasMse() ? loadHls() : null, members() ? personal.ready() : null]);
    } catch {
      if (shown !== generation) return;
      starting = false;
      restart.schedule();
      return;
    }
    await untilPlayable(playbackUrl());
    if (shown !== generation) return;
    starting = false;
    const url = playbackUrl();
    // No address yet (the session or renewal is being retried, which starts playback) or refused.
    if (state !== 'loading' || engine || !url) return;
    playlistEnded = false;
    if (Hls && Hls.isSupported()) startHls(Hls, url);
    else if (video.canPlayType('application/vnd.apple.mpegurl')) startNative(url);
    else {
      unsupported = true;
      setState('error');
    }
  }

  /**
   * Resolves once the master playlist exists (or after PLAYABLE_WAIT_MS: then hls.js's own retries
   * take over). A stream is live from the publisher's connection on; hls.js would retry a missing
   * master with backoff and land up to its interval late.
   */
  async function untilPlayable(url) {
    const until = Date.now() + PLAYABLE_WAIT_MS;
    while (url && state === 'loading' && Date.now() < until) {
      try {
        const res = await fetch(url, { cache: 'no-store', credentials: 'omit' });
        if (res.ok) return;
      } catch {
        // The network: asked again below.
      }
      await new Promise((r) => setTimeout(r, PLAYABLE_POLL_MS * (0.8 + Math.random() * 0.4)));
    }
  }

  function startHls(Hls, url) {
    engine = 'hls';
    sourceUrl = url;
    const loader = members() ? personal.loader(Hls) : Hls.DefaultConfig.loader;
    edge = edgeLoader(loader, (url) => (members() ? personal.rewrite(url) : url));
    hls = new Hls({ ...HLS_CONFIG, loader, pLoader: edge.EdgeLoader });
    const { Events, ErrorTypes } = Hls;
    hls.on(Events.LEVEL_LOADED, (_e, data) => edge.schedule(data.details));
    hls.on(Events.MANIFEST_PARSED, () => {
      quality.build();
      const own = hls;
      edge.started.then(() => hls === own && play());
    });
    hls.on(Events.LEVEL_SWITCHED, () => quality.render());
    hls.on(Events.LEVEL_UPDATED, (_e, data) => {
      if (!data.details.live) playlistEnded = true;
      // Longer pieces than the mode's: the same margin at the low point (never lowered again).
      const wanted = targetFor(data.details.fragments.map((f) => f.duration));
      if (wanted > hls.targetLatency) hls.targetLatency = wanted;
    });
    hls.on(Events.FRAG_BUFFERED, () => {
      recovery.network = 0;
      restart.count = 0;
    });
    hls.on(Events.ERROR, (_e, data) => {
      if (!data.fatal) return;
      if (data.type === ErrorTypes.NETWORK_ERROR) recovery.networkError(data);
      else if (data.type === ErrorTypes.MEDIA_ERROR) recovery.mediaError();
      else restart.schedule();
    });
    hls.loadSource(url);
    hls.attachMedia(video);
  }

  /*
   * Media playlists, timed. hls.js estimates the live edge from when it received the playlist that
   * listed the newest piece, and reloads once per piece at a phase set by its first request; a
   * piece listed just after a reload was seen up to a piece late, every time, for the whole page
   * load (the delay differed by up to a piece between page loads). Here a watch reads each playlist
   * hls.js uses around the time its next piece is due, every EDGE_POLL_MS until it is listed: the
   * first read that shows it times it within EDGE_POLL_MS. hls.js's reloads are moved to
   * EDGE_LEAD_MS before each piece is due (`schedule`), and a reload that comes before the piece
   * waits for the watch and gets it with the watch's time as its first byte, which is what
   * hls.js times the edge by. A reload that comes later gets it timed at its own arrival, as hls.js
   * would time it (it learned of the piece that late; an earlier time would put it where it has
   * nothing buffered). The first read of a playlist, and any after the watch gave up (errors, a
   * piece far overdue), go to the network with hls.js's own retries and timeouts. About two reads
   * per piece. `rewrite` maps an address to the one to request (members' renewed addresses).
   */
  function edgeLoader(Base, rewrite) {
    const watches = new Map();
    let latest = null;
    let timedAnswers = 0;
    const newestOf = (text) => {
      const lines = text.trim().split('\n');
      const extinf = /^#EXTINF:([\d.]+)/.exec(lines[lines.length - 2] || '');
      return {
        uri: lines[lines.length - 1],
        seconds: extinf ? Number(extinf[1]) : 0,
        ended: text.includes('#EXT-X-ENDLIST'),
      };
    };
    const now = () => window.performance.now();
    const durationsOf = (text) => Array.from(text.matchAll(/^#EXTINF:([\d.]+)/gm), (m) => Number(m[1]));
    /**
     * A first read as hls.js gets it: when the newest piece's listing time is known, it says where to
     * start (EXT-X-START, from the end): the target behind the edge as it is now, or at least the
     * mode's margin when the next piece is late. hls.js's own start (the target behind the edge as of
     * the read, and never closer than a whole piece) would be up to a piece further back. Not when
     * the piece is older than the target (the stream is stalled: hls.js's start is the safer one).
     */
    const withStart = (watch) => {
      const { text, newest } = watch;
      const age = (now() - watch.at) / 1000;
      const durations = durationsOf(text);
      const target = targetFor(durations);
      if (!watch.exact || !newest.seconds || newest.ended || age >= target) return text;
      const behind = Math.max(target - age, MODE.margin);
      // At go-live the pieces listed may be shorter than the target: the start is their first
      // frame, and playback waits until that frame is the target behind the edge (a start at once
      // would run on the pipeline's margin alone and stall before the next piece).
      const short = behind - durations.reduce((sum, d) => sum + d, 0);
      if (short > 0) holdUntil = now() + short * 1000;
      return text.replace(/^#EXTM3U\n/, `#EXTM3U\n#EXT-X-START:TIME-OFFSET=-${behind.toFixed(3)}\n`);
    };
    /** When playback may start (performance time), once the first playlist was read. */
    let holdUntil = 0;
    let release;
    const started = new Promise((resolve) => (release = resolve));
    /**
     * When the newest piece of a playlist read from the network was listed (performance time): the
     * origin's `X-Playlist-Age` (seconds since the uploader wrote it) before the first byte; null
     * without the header.
     */
    const listedAt = (loader, stats) => {
      const header = typeof loader.getResponseHeader === 'function' ? loader.getResponseHeader('X-Playlist-Age') : null;
      const age = header === null ? NaN : Number(header);
      return Number.isFinite(age) && age >= 0 && stats.loading.first ? stats.loading.first - age * 1000 : null;
    };

    class Watch {
      constructor(url) {
        this.url = url;
        this.text = null;
        this.newest = null;
        /** When `text` was first seen, and whether a read just before had not shown it (then `at` is within EDGE_POLL_MS). */
        this.at = 0;
        this.exact = false;
        /** The newest piece hls.js was given. */
        this.given = null;
        this.usedAt = 0;
        this.timer = undefined;
        /** A read is scheduled or under way. */
        this.pending = false;
        this.waiters = [];
      }
      /** `at`: when the newest piece was listed, if known (`exact`), else when this read saw it. */
      seen(text, exact, at = now()) {
        const newest = newestOf(text);
        // The end (EXT-X-ENDLIST) is news too, with or without a last piece.
        if (this.newest && newest.uri === this.newest.uri && newest.ended === this.newest.ended) return false;
        Object.assign(this, { text, newest, exact, at });
        return true;
      }
      get fresh() {
        return this.text !== null && this.newestKey !== this.given;
      }
      get newestKey() {
        return `${this.newest.uri}${this.newest.ended ? ' end' : ''}`;
      }
      /** When the next piece should be listed (performance time), once the last one was timed exactly. */
      get due() {
        return this.exact && this.newest.seconds && !this.newest.ended ? this.at + this.newest.seconds * 1000 : null;
      }
      give() {
        this.given = this.newestKey;
        this.next();
      }
      /**
       * Reads from just before the next piece is due (right away when the last one's time is not
       * exact) until it is listed or is 1.5 pieces overdue; stops once hls.js stops asking.
       */
      next() {
        clearTimeout(this.timer);
        const { seconds, ended, uri } = this.newest;
        if (ended || !seconds) return;
        const due = this.at + seconds * 1000;
        let unchanged = false;
        const read = () => {
          if (now() - this.usedAt > seconds * 3000 || this.newest.uri !== uri) return this.stop();
          fetch(rewrite(this.url), { cache: 'no-store', credentials: 'omit' })
            .then((res) => (res.ok ? res.text() : Promise.reject(new Error(String(res.status)))))
            .then((text) => {
              if (this.seen(text, unchanged)) return this.stop();
              unchanged = true;
              if (now() < due + seconds * 1500) this.timer = setTimeout(read, EDGE_POLL_MS);
              else this.stop();
            })
            .catch(() => this.stop());
        };
        this.pending = true;
        this.timer = setTimeout(read, this.exact ? Math.max(0, due - EDGE_POLL_MS - now()) : EDGE_POLL_MS);
      }
      stop() {
        this.pending = false;
        for (const wake of this.waiters.splice(0)) wake();
      }
      /** Resolves when the watch has a newer playlist or stops watching. */
      wait() {
        return this.pending ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
      }
    }

    class EdgeLoader extends Base {
      load(context, config, callbacks) {
        if (context.type !== 'level') return super.load(context, config, callbacks);
        const watch = watches.get(context.url) || new Watch(context.url);
        watches.set(context.url, watch);
        watch.usedAt = now();
        latest = watch;
        if (watch.fresh) return this.answer(watch, context, callbacks, false);
        if (!watch.pending) {
          return super.load(context, config, {
            ...callbacks,
            onSuccess: (response, stats, ctx, details) => {
              const first = watch.text === null;
              // The first read is timed by its age at the origin (hls.js would take it as brand new).
              const listed = first ? listedAt(this, stats) : null;
              if (typeof response.data === 'string' && watch.seen(response.data, listed !== null, listed ?? now()))
                watch.give();
              if (listed !== null) {
                stats.loading.first = listed;
                stats.loading.start = Math.min(stats.loading.start, listed);
              }
              // hls.js times its first reload a piece after this request started: moved to right
              // away, the reload waits for the watch, which times the next piece.
              if (first && watch.newest.seconds) stats.loading.start -= watch.newest.seconds * 1000 - EDGE_POLL_MS;
              callbacks.onSuccess(
                first && watch.text !== null ? { ...response, data: withStart(watch) } : response,
                stats,
                ctx,
                details,
              );
              if (first) setTimeout(release, Math.max(0, holdUntil - now()));
            },
          });
        }
        // Before the piece: wait for the watch (or the network, if it gives up).
        this.stats.loading.start = now();
        watch.wait().then(() => {
          if (this.cancelled) return;
          if (watch.fresh) return this.answer(watch, context, callbacks, watch.exact);
          this.stats.loading.start = 0;
          this.load(context, config, callbacks);
        });
      }
      /** `timed`: the reload waited for the piece, which keeps the watch's time. */
      answer(watch, context, callbacks, timed) {
        const { text, at } = watch;
        watch.give();
        timedAnswers += timed ? 1 : 0;
        const stats = this.stats;
        stats.loading.start = stats.loading.start || now();
        // The first byte "arrived" when the watch saw the piece (after this request started).
        stats.loading.first = timed ? Math.max(at, stats.loading.start) : now();
        stats.loading.end = now();
        stats.loaded = stats.total = text.length;
        callbacks.onSuccess({ url: rewrite(context.url), data: text, code: 200 }, stats, context, null);
      }
      abortInternal() {
        this.cancelled = true;
        super.abortInternal();
      }
    }

    return {
      EdgeLoader,
      /** Resolves when playback may start (see `withStart`). */
      started,
      /** How many reloads got a piece timed by the watch. */
      get timedAnswers() {
        return timedAnswers;
      },
      /**
       * After hls.js scheduled its next reload of `details`: the one after goes EDGE_LEAD_MS before
       * the piece after that is due (hls.js adds a piece to the last schedule each time).
       */
      schedule(details) {
        const due = latest && latest.due;
        if (due !== null && details.live) details.requestScheduled = due - EDGE_LEAD_MS;
      },
    };
  }

  function startNative(url) {
    engine = 'native';
    video.src = url;
    quality.build();
    play();
  }

  const recovery = {
    network: 0,
    media: 0,
    mediaAt: 0,
    timer: undefined,
    /**
     * Fatal network error: try again with backoff. A missing manifest is loaded again whole, every
     * 2 s or so: a stream is live from the publisher's connection on, its first segments follow
     * 5 to 7 s later, and the first picture should not wait for a long backoff.
     */
    networkError(data) {
      // Refused earlier: the address has stopped working, as it was going to.
      if (personal.refusal) return personal.showRefusal();
      poll.soon();
      clearTimeout(this.timer);
      this.network++;
      // A new address from the embed (say, re-signed) is taken here too; a personal one is
      // already used for every request (the loader).
      const reload =
        !hls.levels ||
        hls.levels.length === 0 ||
        /^manifest/.test(data.details) ||
        (!members() && embed.playback_url !== sourceUrl);
      this.timer = setTimeout(
        () => {
          if (!hls) return;
          const url = playbackUrl();
          if (reload && url) {
            sourceUrl = url;
            hls.loadSource(url);
          } else hls.startLoad();
        },
        reload ? Math.min(2000, backoff(this.network)) : backoff(this.network),
      );
    },
    /** Fatal media error: recover, then swap the audio codec, then start over. */
    mediaError() {
      const now = Date.now();
      this.media = now - this.mediaAt < 10000 ? this.media + 1 : 1;
      this.mediaAt = now;
      if (this.media === 1) hls.recoverMediaError();
      else if (this.media === 2) {
        hls.swapAudioCodec();
        hls.recoverMediaError();
      } else restart.schedule();
    },
    reset() {
      clearTimeout(this.timer);
      this.network = 0;
      this.media = 0;
    },
  };

  /** Start the engine again from scratch, with backoff; the embed read says whether to. */
  const restart = {
    count: 0,
    timer: undefined,
    schedule() {
      teardown();
      clearTimeout(this.timer);
      this.count++;
      poll.soon();
      // Still nothing after several tries: say so; the next embed read (live) tries again.
      if (this.count > MAX_RESTARTS) {
        this.count = 0;
        return setState('error');
      }
      this.timer = setTimeout(() => {
        if (state === 'loading' || state === 'playing') void (replay.active ? replay.load() : startPlayback());
      }, backoff(this.count));
    },
  };

  function play() {
    const p = video.play();
    if (!p) return;
    p.catch((err) => {
      if (err.name !== 'NotAllowedError') return;
      if (!video.muted) {
        // Autoplay with sound refused: start muted and offer to unmute.
        video.muted = true;
        root.dataset.mutedStart = 'true';
        play();
        return;
      }
      // Refused even muted: show the picture's place and wait for the viewer.
      setState('playing');
      setPlayback('paused');
    });
  }

  /** Stop loading and show the poster again. */
  function teardown() {
    recovery.reset();
    if (hls) {
      hls.destroy();
      hls = null;
    }
    if (engine) {
      video.removeAttribute('src');
      video.load();
    }
    engine = null;
  }

  function stopPlayback() {
    clearTimeout(drainTimer);
    clearTimeout(restart.timer);
    teardown();
    quality.build();
  }

  function bufferAhead() {
    const b = video.buffered;
    return b.length ? Math.max(0, b.end(b.length - 1) - video.currentTime) : 0;
  }

  /** The embed says ended: let what is buffered play out (the last seconds), then the ended screen. */
  function endWhenDrained() {
    if (!engine || state !== 'playing' || playback !== 'playing') return setState('ended');
    clearTimeout(drainTimer);
    drainTimer = setTimeout(() => setState('ended'), (bufferAhead() + 2) * 1000);
  }

  /** Seconds behind the live edge as the player sees it (not counting the pipeline's own delay). */
  function latency() {
    if (hls) return hls.latency;
    const s = video.seekable;
    return s.length ? s.end(s.length - 1) - video.currentTime : null;
  }

  function goLive() {
    if (hls && hls.liveSyncPosition !== null) video.currentTime = hls.liveSyncPosition;
    else if (video.seekable.length)
      video.currentTime = Math.max(0, video.seekable.end(video.seekable.length - 1) - targetLatency());
    if (video.paused) play();
  }

  video.addEventListener('playing', () => {
    if (!engine) return;
    setState('playing');
    setPlayback('playing');
  });
  video.addEventListener('pause', () => {
    if (engine && !video.ended) setPlayback('paused');
  });
  video.addEventListener('waiting', () => {
    if (engine && !video.paused) setPlayback('buffering');
  });
  video.addEventListener('ended', () => {
    // A replay stays where it ended: the viewer may seek back.
    if (engine && replay.active) setPlayback('paused');
    else if (engine) setState('ended');
  });
  video.addEventListener('error', () => {
    // hls.js reports its own errors; this is native HLS losing the stream.
    if (engine === 'native') restart.schedule();
  });

  /** Once a second: progress, stalls, the live badge. */
  const watchdog = {
    lastTime: -1,
    stalled: 0,
    tick() {
      const active = engine && (state === 'loading' || (state === 'playing' && !video.paused));
      // Real playback moves about a second per tick; hls.js's nudges over a gap move 0.1 s.
      if (!active || Math.abs(video.currentTime - this.lastTime) > 0.5) {
        this.stalled = 0;
        if (active && playback === 'buffering' && !video.paused) setPlayback('playing');
      } else {
        this.stalled++;
        if (state === 'playing' && this.stalled >= 2) setPlayback('buffering');
        // The end of a finished playlist, or a stall that may mean the stream ended.
        if (playlistEnded && bufferAhead() < 0.5) setState('ended');
        else if (this.stalled % (STALL_CHECK_SECONDS * 3) === STALL_CHECK_SECONDS) poll.soon();
      }
      this.lastTime = video.currentTime;
      const l = latency();
      if (
        hls &&
        hls.config.maxLiveSyncPlaybackRate > CATCH_UP_RATE &&
        edge &&
        edge.timedAnswers > 0 &&
        l !== null &&
        l < hls.targetLatency + 0.3
      ) {
        hls.config.maxLiveSyncPlaybackRate = CATCH_UP_RATE;
      }
      $('svc-live').dataset.edge = String(l !== null && l < targetLatency() + 4);
    },
  };
  setInterval(() => watchdog.tick(), 1000);

  // ---------------------------------------------------------------- replay

  /**
   * The replay of an ended stream (the embed's `replay`): its recording as HLS VOD, played from the
   * start with the browser's own controls (a seek bar) and labelled "Replay"; beats as for live. A
   * members-only replay plays the viewer's personal address (a session opened during the live
   * stream renews it first: its address was the live one).
   */
  const replay = {
    active: false,
    start() {
      if (this.active) return;
      this.active = true;
      root.dataset.replay = 'true';
      const badge = $('svc-live');
      badge.textContent = 'REPLAY';
      badge.setAttribute('aria-label', 'Replay');
      badge.disabled = true;
      video.controls = true;
      video.setAttribute('aria-label', 'Replay');
      if (members() && personal.url && !personal.url.includes('/_replay/')) personal.expiresAt = 0;
      stopPlayback();
      void this.load();
    },
    async load() {
      setState('loading');
      let Hls = null;
      try {
        [Hls] = await Promise.all([hasMse() ? loadHls() : null, members() ? personal.ready() : null]);
      } catch {
        return restart.schedule();
      }
      const url = playbackUrl();
      if (!this.active || state !== 'loading' || engine || !url) return;
      if (!Hls || !Hls.isSupported()) return startNative(url);
      engine = 'hls';
      sourceUrl = url;
      hls = new Hls({ loader: members() ? personal.loader(Hls) : Hls.DefaultConfig.loader });
      hls.on(Hls.Events.MANIFEST_PARSED, () => {
        quality.build();
        play();
      });
      hls.on(Hls.Events.ERROR, (_e, data) => {
        if (!data.fatal) return;
        if (data.type === Hls.ErrorTypes.NETWORK_ERROR) recovery.networkError(data);
        else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) recovery.mediaError();
        else restart.schedule();
      });
      hls.loadSource(url);
      hls.attachMedia(video);
    },
    /** The replay was withdrawn (its recording deleted): back to the ended screen. */
    stop() {
      if (!this.active) return;
      this.active = false;
      delete root.dataset.replay;
      video.controls = false;
      setState('ended');
    },
  };

  // ---------------------------------------------------------------- controls

  const quality = {
    /** Auto and every rendition, labelled by its short side (a portrait 1080p is 1080p too). */
    build() {
      for (const item of qualityMenu.querySelectorAll('[data-quality]:not([data-quality="auto"])')) item.remove();
      if (engine === 'hls' && hls) {
        const seen = new Set();
        const levels = hls.levels.map((l, index) => ({
          index,
          p: Math.min(l.width || l.height, l.height || l.width),
          bitrate: l.bitrate,
        }));
        levels.sort((a, b) => b.p - a.p || b.bitrate - a.bitrate);
        for (const { index, p, bitrate } of levels) {
          const key = p ? String(p) : `${Math.round(bitrate / 1000)}k`;
          if (seen.has(key)) continue;
          seen.add(key);
          const item = document.createElement('button');
          item.type = 'button';
          item.setAttribute('role', 'menuitemradio');
          item.tabIndex = -1;
          item.dataset.quality = key;
          item.dataset.level = String(index);
          item.textContent = p ? `${p}p` : `${Math.round(bitrate / 1000)} kbps`;
          qualityMenu.appendChild(item);
        }
      }
      this.render();
    },
    choose(key) {
      if (hls) {
        const item = qualityMenu.querySelector(`[data-quality="${key}"]`);
        // nextLevel: switch at the next segment without emptying the buffer (no stall on a 4-s live buffer).
        hls.nextLevel = key === 'auto' || !item ? -1 : Number(item.dataset.level);
      }
      this.render();
    },
    render() {
      const auto = !hls || hls.autoLevelEnabled;
      const level = hls ? hls.levels[hls.currentLevel] : undefined;
      const current = level ? `${Math.min(level.width || level.height, level.height || level.width)}p` : '';
      const selectedLevel = hls && !auto ? String(hls.manualLevel) : null;
      for (const item of qualityMenu.querySelectorAll('[data-quality]')) {
        const checked = item.dataset.quality === 'auto' ? auto : item.dataset.level === selectedLevel;
        item.setAttribute('aria-checked', String(checked));
      }
      const label = auto ? (current ? `Auto (${current})` : 'Auto') : current || 'Auto';
      qualityButton.textContent = label;
      qualityButton.setAttribute('aria-label', `Quality: ${label}`);
    },
  };

  function menuItems() {
    return [...qualityMenu.querySelectorAll('[role="menuitemradio"]')];
  }

  function openMenu() {
    qualityMenu.hidden = false;
    qualityButton.setAttribute('aria-expanded', 'true');
    const items = menuItems();
    (items.find((i) => i.getAttribute('aria-checked') === 'true') || items[0]).focus();
  }

  function closeMenu(focusButton) {
    if (qualityMenu.hidden) return;
    qualityMenu.hidden = true;
    qualityButton.setAttribute('aria-expanded', 'false');
    if (focusButton) qualityButton.focus();
  }

  qualityButton.addEventListener('click', () => (qualityMenu.hidden ? openMenu() : closeMenu(true)));
  qualityMenu.addEventListener('click', (e) => {
    const item = e.target.closest('[data-quality]');
    if (!item) return;
    quality.choose(item.dataset.quality);
    closeMenu(true);
  });
  qualityMenu.addEventListener('keydown', (e) => {
    const items = menuItems();
    const at = items.indexOf(document.activeElement);
    const move = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key];
    if (move !== undefined) items[(move + items.length) % items.length].focus();
    else if (e.key === 'Escape') closeMenu(true);
    else if (e.key === 'Tab') closeMenu(false);
    else return;
    if (e.key !== 'Tab') e.preventDefault();
    e.stopPropagation();
  });
  document.addEventListener('click', (e) => {
    if (!e.target.closest('.quality')) closeMenu(false);
  });

  function togglePlay() {
    if (!engine) return;
    if (video.paused) {
      // Back from a long pause: the live edge, not minutes behind it.
      const l = latency();
      if (l !== null && l > HLS_CONFIG.liveMaxLatencyDuration) goLive();
      else play();
    } else video.pause();
  }

  function setVolume(v) {
    video.volume = Math.min(1, Math.max(0, Math.round(v * 100) / 100));
    video.muted = video.volume === 0;
  }

  function toggleFullscreen() {
    if (document.fullscreenElement) void document.exitFullscreen();
    else if (root.requestFullscreen) root.requestFullscreen().catch(() => {});
    // iOS Safari: only the video itself can go full screen.
    else if (video.webkitEnterFullscreen) video.webkitEnterFullscreen();
  }

  $('svc-play').addEventListener('click', togglePlay);
  $('svc-bigplay').addEventListener('click', togglePlay);
  $('svc-live').addEventListener('click', goLive);
  $('svc-mute').addEventListener('click', () => {
    video.muted = !video.muted;
    if (!video.muted && video.volume === 0) video.volume = 0.5;
  });
  $('svc-unmute').addEventListener('click', () => {
    video.muted = false;
    if (video.volume === 0) video.volume = 0.5;
  });
  $('svc-volume').addEventListener('input', (e) => setVolume(Number(e.target.value)));
  $('svc-fullscreen').addEventListener('click', toggleFullscreen);
  video.addEventListener('click', togglePlay);
  video.addEventListener('dblclick', toggleFullscreen);

  video.addEventListener('volumechange', () => {
    $('svc-mute').setAttribute('aria-pressed', String(video.muted));
    $('svc-volume').value = String(video.muted ? 0 : video.volume);
    if (!video.muted) delete root.dataset.mutedStart;
  });
  document.addEventListener('fullscreenchange', () => {
    $('svc-fullscreen').setAttribute('aria-pressed', String(!!document.fullscreenElement));
  });

  const KEYS = {
    ' ': togglePlay,
    k: togglePlay,
    m: () => (video.muted = !video.muted),
    f: toggleFullscreen,
    ArrowUp: () => setVolume(video.volume + 0.05),
    ArrowRight: () => setVolume(video.volume + 0.05),
    ArrowDown: () => setVolume(video.volume - 0.05),
    ArrowLeft: () => setVolume(video.volume - 0.05),
  };
  document.addEventListener('keydown', (e) => {
    if (state !== 'playing' || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    // Typing a message, or moving through the chat, is not controlling the video.
    if (target.closest('.chat')) return;
    // Buttons act on space themselves; the slider handles its own arrows.
    if (e.key === ' ' && target.closest('button')) return;
    if (e.key.startsWith('Arrow') && target.id === 'svc-volume') return;
    const action = KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (!action) return;
    e.preventDefault();
    action();
    idle.wake();
  });

  /** Controls fade after a few seconds of no pointer or keyboard while playing. */
  const idle = {
    timer: undefined,
    wake() {
      root.dataset.idle = 'false';
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        if (state === 'playing' && playback === 'playing' && qualityMenu.hidden) root.dataset.idle = 'true';
      }, IDLE_MS);
    },
  };
  for (const type of ['pointermove', 'pointerdown', 'focusin']) root.addEventListener(type, () => idle.wake());

  // ---------------------------------------------------------------- chat

  /** localStorage, which a sandboxed frame or blocked third-party storage refuses: then for this page load only. */
  const store = {
    get(key) {
      try {
        return localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        localStorage.setItem(key, value);
      } catch {
        // Not kept: the default again next time.
      }
    },
  };

  const EMOJI_NAMES = {
    '👍': 'thumbs up',
    '❤️': 'heart',
    '😂': 'laughing',
    '😮': 'surprised',
    '👏': 'applause',
    '🔥': 'fire',
    '🎉': 'celebration',
    '😢': 'sad',
  };
  /** A reaction counts beside its button for this long. */
  const REACTION_WINDOW_MS = 10000;
  const MAX_MESSAGES = 200;
  const MAX_FLOATING = 20;

  const waitText = (seconds) =>
    seconds >= 120 ? `${Math.round(seconds / 60)} minutes` : seconds === 1 ? '1 second' : `${seconds} seconds`;
  const parseJson = (text) => {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  };
  /** An element with text content only: nothing a viewer wrote is ever parsed as markup. */
  function textElement(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    el.textContent = text;
    return el;
  }

  /** What a refused post, reaction or moderator action means to the viewer. */
  function chatRefusal(error, wait) {
    switch (error.code) {
      case 'viewer_token_required':
      case 'invalid_viewer_token':
        return 'Sign in to chat';
      case 'chat_slow_mode':
        return `Slow mode is on: you can post again in ${waitText(wait)}`;
      case 'chat_rate_limited':
        return `You are sending too fast: wait ${waitText(wait)}`;
      case 'chat_busy':
        return `The chat is busy: try again in ${waitText(wait)}`;
      case 'chat_disabled':
        return 'The chat is turned off';
      case 'stream_ended':
        return 'The stream has ended';
      case 'not_a_moderator':
        return 'You are not a moderator of this stream';
      default:
        return error.message ? `Not sent: ${error.message}` : 'Not sent: try again';
    }
  }

  /**
   * The chat panel. It runs while the stream is pending or live and the page may watch (a
   * members-only stream once the session is open); the feed is one EventSource, resumed with
   * `Last-Event-ID` by the browser and opened again here when the answer was a refusal. Nothing
   * in it can stop the video: every failure stays inside the panel.
   */
  const chat = {
    panel: $('svc-chat'),
    toggle: $('svc-chat-toggle'),
    log: $('svc-chat-log'),
    form: $('svc-chat-form'),
    text: $('svc-chat-text'),
    nickname: $('svc-chat-name'),
    note: $('svc-chat-note'),
    alertLine: $('svc-chat-alert'),
    reactions: $('svc-chat-reactions'),
    slow: $('svc-chat-slow'),
    /** The embed read's `chat` object, then the feed's `settings` events. */
    settings: null,
    visible: false,
    collapsed:
      store.get('svc-chat-collapsed') === null ? window.innerWidth < 600 : store.get('svc-chat-collapsed') === 'true',
    ended: false,
    /** The feed is wanted (it may be waiting to be opened again). */
    running: false,
    source: null,
    /** The session token the feed was opened with ('' anonymous): a new session opens it again. */
    feedAs: null,
    lastEventId: '',
    failures: 0,
    timer: undefined,
    quietTimer: undefined,
    alertTimer: undefined,
    /** id → { el, message }, in the log's order. */
    items: new Map(),
    /** `reactions` events of the last REACTION_WINDOW_MS: [at, counts]. */
    recent: [],
    emojis: '',
    /** Delete and Ban are on the messages. */
    tools: false,
    /** The API said this session is no longer a moderator. */
    revoked: false,
    sending: false,
    clientIdValue: null,

    /** An anonymous viewer's identity: random, kept across page loads (so their own posts stay theirs). */
    clientId() {
      if (this.clientIdValue) return this.clientIdValue;
      const kept = store.get('svc-chat-client');
      this.clientIdValue = kept && /^[A-Za-z0-9_-]{8,64}$/.test(kept) ? kept : randomId();
      if (this.clientIdValue !== kept) store.set('svc-chat-client', this.clientIdValue);
      return this.clientIdValue;
    },
    identity() {
      return viewer.session ? { session_token: viewer.session.session_token } : { client_id: this.clientId() };
    },
    verifiedName() {
      return !!(viewer.session && viewer.session.viewer.name);
    },

    /**
     * Called whenever the embed, the state or the session changed. The feed's `settings` are
     * the only source of the chat's settings (the embed read has none): the panel shows once
     * they say the chat is open.
     */
    update() {
      const open = embed.status === 'pending' || embed.status === 'live';
      const cannotWatch =
        state === 'members' || state === 'unavailable' || state === 'closed' || Object.values(REFUSALS).includes(state);
      if (!embed.id || cannotWatch || (!open && !this.visible) || (members() && !viewer.session && !viewer.opening))
        return this.hide();
      if (!open) return this.end();
      // The feed is opened with the session (the viewer's own view): its first answer comes first.
      if (viewer.opening) return;
      if (!this.running || this.feedAs !== this.as()) this.connect();
      // Back after being hidden: a resumed feed does not repeat the settings it already sent.
      if (!this.visible && this.settings && this.settings.enabled) {
        this.visible = true;
        this.render();
      }
    },
    as() {
      return viewer.session ? viewer.session.session_token : '';
    },
    hide() {
      this.stop();
      if (!this.visible) return;
      this.visible = false;
      this.render();
    },
    end() {
      this.stop();
      this.ended = true;
      this.render();
    },
    stop() {
      clearTimeout(this.timer);
      if (this.source) this.source.close();
      this.source = null;
      this.running = false;
    },

    connect() {
      this.stop();
      this.running = true;
      this.feedAs = this.as();
      const q = new URLSearchParams({ c: this.clientId() });
      if (viewer.session) q.set('t', viewer.session.session_token);
      if (this.lastEventId) q.set('after', this.lastEventId);
      const source = new EventSource(`${api}/chat/feed?${q}`);
      this.source = source;
      const on = (type, fn) =>
        source.addEventListener(type, (e) => {
          if (e.lastEventId) this.lastEventId = e.lastEventId;
          const data = parseJson(e.data);
          if (data && typeof data === 'object') fn(data);
        });
      source.addEventListener('open', () => (this.failures = 0));
      on('reset', () => this.reset());
      on('message', (message) => this.add(message));
      on(
        'delete',
        (deletion) => Array.isArray(deletion.message_ids) && deletion.message_ids.forEach((id) => this.remove(id)),
      );
      on('settings', (settings) => {
        this.apply(settings);
        this.quiet(false);
      });
      on('reactions', (reactions) => this.reacted(reactions));
      source.addEventListener('error', () => {
        // A lost connection is resumed by the browser itself; a refusal (or not an event stream) is not.
        if (source.readyState !== EventSource.CLOSED || this.source !== source) return;
        this.source = null;
        this.failures++;
        // Perhaps the stream ended or the chat closed: the embed read says.
        poll.soon();
        this.timer = setTimeout(() => this.running && this.connect(), Math.min(60000, 2 * backoff(this.failures)));
      });
    },

    reset() {
      this.items.clear();
      this.log.replaceChildren();
      // The last messages that follow are not news: announcing resumes at the `settings` after them.
      this.quiet(true);
    },
    quiet(on) {
      clearTimeout(this.quietTimer);
      this.log.setAttribute('aria-live', on ? 'off' : 'polite');
      if (on) this.quietTimer = setTimeout(() => this.quiet(false), 2000);
    },

    add(message) {
      if (
        typeof message.id !== 'string' ||
        this.items.has(message.id) ||
        message.deleted_at ||
        typeof message.text !== 'string'
      )
        return;
      const author = message.author || {};
      const el = textElement('p', 'msg', '');
      el.dataset.id = message.id;
      el.dataset.at = message.created_at || '';
      el.append(textElement('span', 'who', String(author.name || 'Viewer')));
      if (author.verified) {
        const mark = textElement('span', 'verified', '✓');
        mark.setAttribute('role', 'img');
        mark.setAttribute('aria-label', 'verified');
        mark.title = 'Verified name';
        el.append(mark);
      }
      if (author.role === 'moderator') el.append(textElement('span', 'mod-badge', 'Moderator'));
      el.append(': ', textElement('span', 'text', message.text));
      if (this.tools) this.addTools(el, author);
      this.items.set(message.id, { el, message });
      const atEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 48;
      // In the order written: a post shown on sending may come before others the feed brings next.
      let before = null;
      for (let n = this.log.lastElementChild; n && n.dataset.at > el.dataset.at; n = n.previousElementSibling)
        before = n;
      this.log.insertBefore(el, before);
      while (this.items.size > MAX_MESSAGES) this.remove(this.log.firstElementChild.dataset.id);
      if (atEnd) this.log.scrollTop = this.log.scrollHeight;
    },
    remove(id) {
      const item = this.items.get(id);
      if (!item) return;
      // Focus on its Delete button is not lost to the page.
      if (item.el.contains(document.activeElement)) this.log.focus();
      item.el.remove();
      this.items.delete(id);
    },
    addTools(el, author) {
      const name = String(author.name || 'Viewer');
      for (const [action, label, aria] of [
        ['delete', 'Delete', `Delete the message from ${name}`],
        ['ban', 'Ban', `Ban ${name}`],
      ]) {
        const button = textElement('button', 'tool', label);
        button.type = 'button';
        button.dataset.action = action;
        button.setAttribute('aria-label', aria);
        el.append(button);
      }
    },

    apply(settings) {
      this.settings = settings;
      // A chat that is off is not shown until it is turned on; once shown, it says it is off.
      if (settings.enabled && this.running) this.visible = true;
      const emojis =
        settings.reactions && Array.isArray(settings.reactions.emojis)
          ? settings.reactions.emojis.filter((e) => typeof e === 'string')
          : [];
      if (emojis.join(' ') !== this.emojis) {
        this.emojis = emojis.join(' ');
        this.reactions.replaceChildren(
          ...emojis.map((emoji) => {
            const button = textElement('button', 'react', '');
            button.type = 'button';
            button.dataset.emoji = emoji;
            button.setAttribute('aria-label', `React with ${EMOJI_NAMES[emoji] || emoji}`);
            const face = textElement('span', '', emoji);
            face.setAttribute('aria-hidden', 'true');
            button.append(face, textElement('span', 'count', ''));
            return button;
          }),
        );
        this.countReactions();
      }
      this.render();
    },

    render() {
      const open = this.visible && !this.collapsed;
      this.toggle.hidden = !this.visible;
      this.toggle.setAttribute('aria-expanded', String(open));
      this.panel.hidden = !open;
      if (this.visible) root.dataset.chat = open ? 'open' : 'closed';
      else delete root.dataset.chat;
      const s = this.settings;
      if (!s) return;
      const session = viewer.session;
      const signedOut = !session && !s.anonymous_posting;
      const closed = this.ended || !s.enabled;
      this.form.hidden = closed || signedOut;
      $('svc-chat-name-row').hidden = this.verifiedName();
      this.reactions.hidden = closed || !this.reactions.firstChild;
      const moderator = !!(session && session.moderator) && !this.revoked;
      $('svc-chat-mod').hidden = !moderator || closed;
      const seconds = String(s.slow_mode_seconds || 0);
      if (![...this.slow.options].some((o) => o.value === seconds))
        this.slow.append(new Option(waitText(Number(seconds)), seconds));
      this.slow.value = seconds;
      if (moderator !== this.tools) {
        this.tools = moderator;
        for (const { el, message } of this.items.values()) {
          if (moderator) this.addTools(el, message.author || {});
          else for (const tool of el.querySelectorAll('.tool')) tool.remove();
        }
      }
      const slow =
        s.slow_mode_seconds > 0
          ? `Slow mode: one message every ${waitText(s.slow_mode_seconds)}${moderator ? ' (moderators are exempt)' : ''}`
          : '';
      const note = this.ended
        ? 'The stream has ended'
        : !s.enabled
          ? 'The chat is turned off'
          : signedOut
            ? 'Sign in to chat'
            : slow;
      if (this.note.textContent !== note) this.note.textContent = note;
    },

    /** Shown in the panel's alert line; cleared after `seconds` (the wait a refusal named) when given. */
    alert(text, seconds = 0) {
      clearTimeout(this.alertTimer);
      this.alertLine.textContent = text;
      if (text && seconds > 0) this.alertTimer = setTimeout(() => this.alert(''), seconds * 1000);
    },

    /** POST to the chat API; a refusal is shown in the panel and answers null. */
    async call(path, body) {
      let res;
      try {
        res = await fetch(`${api}/${path}`, {
          method: 'POST',
          credentials: 'omit',
          headers: json,
          body: JSON.stringify(body),
        });
      } catch {
        this.alert('Not sent: no connection, try again');
        return null;
      }
      if (res.ok) return res;
      const error = await errorOf(res);
      const wait = Math.max(1, Math.ceil(Number(res.headers.get('retry-after')) || 0));
      this.alert(chatRefusal(error, wait), res.status === 429 || res.status === 503 ? wait : 0);
      if (error.details && error.details.field === 'nickname') this.nickname.focus();
      if (error.code === 'not_a_moderator') {
        this.revoked = true;
        this.render();
      }
      return null;
    },

    async send() {
      const text = this.text.value.trim();
      if (!text || this.sending) return;
      const body = { text, ...this.identity() };
      if (!this.verifiedName()) {
        const nickname = this.nickname.value.trim();
        if (!nickname) {
          this.alert('Choose a nickname first');
          this.nickname.focus();
          return;
        }
        body.nickname = nickname;
        store.set('svc-chat-nickname', nickname);
      }
      this.sending = true;
      try {
        const res = await this.call('chat/messages', body);
        if (!res) return;
        this.text.value = '';
        this.alert('');
        const message = parseJson(await res.text());
        if (message && typeof message === 'object') this.add(message);
      } catch {
        // The post was taken; the feed brings it.
      } finally {
        this.sending = false;
      }
    },

    react(emoji) {
      this.float(emoji, 0);
      const rate = this.settings && this.settings.reactions ? this.settings.reactions.rate : 0;
      // Sampled like beats: a crowd's reactions cost the API a few hundred posts a second at most,
      // and the counts are scaled back up by `rate`.
      if (beats.u < rate) void this.call('chat/reactions', { emoji, ...this.identity() });
    },
    reacted(reactions) {
      if (!reactions.counts || typeof reactions.counts !== 'object') return;
      this.recent.push([Date.now(), reactions.counts]);
      for (const [emoji, n] of Object.entries(reactions.counts))
        for (let i = 0; i < Math.min(3, Number(n) || 0); i++) this.float(emoji, i * 200);
      this.countReactions();
    },
    countReactions() {
      const since = Date.now() - REACTION_WINDOW_MS;
      this.recent = this.recent.filter(([at]) => at > since);
      const totals = {};
      for (const [, counts] of this.recent)
        for (const [emoji, n] of Object.entries(counts)) totals[emoji] = (totals[emoji] || 0) + (Number(n) || 0);
      for (const button of this.reactions.querySelectorAll('.react')) {
        const n = Math.round(totals[button.dataset.emoji] || 0);
        const text = n <= 0 ? '' : n < 1000 ? String(n) : `${(n / 1000).toFixed(1)}k`;
        const count = button.querySelector('.count');
        if (count.textContent !== text) count.textContent = text;
      }
    },
    /** An emoji rising from its button (decoration only: hidden from screen readers). */
    float(emoji, delay) {
      if (this.panel.hidden || this.reactions.querySelectorAll('.float').length >= MAX_FLOATING) return;
      const button = [...this.reactions.querySelectorAll('.react')].find((b) => b.dataset.emoji === emoji);
      if (!button) return;
      const el = textElement('span', 'float', emoji);
      el.setAttribute('aria-hidden', 'true');
      el.style.left = `${button.offsetLeft}px`;
      el.style.animationDelay = `${delay}ms`;
      this.reactions.append(el);
      setTimeout(() => el.remove(), 2500 + delay);
    },

    async moderate(action, id) {
      const item = this.items.get(id);
      if (!viewer.session || !item) return;
      const res = await this.call(`mod/${action}`, { session_token: viewer.session.session_token, message_id: id });
      if (!res) return;
      if (action === 'delete') this.remove(id);
      else this.alert(`${item.message.author.name} is banned`, 8);
    },
    async slowMode(seconds) {
      if (!viewer.session) return;
      const res = await this.call('mod/slow-mode', { session_token: viewer.session.session_token, seconds });
      const settings = res && parseJson(await res.text().catch(() => ''));
      if (settings && typeof settings === 'object') this.apply(settings);
      // Refused: the select shows the setting in force again.
      else this.render();
    },

    start() {
      this.nickname.value = store.get('svc-chat-nickname') || '';
      this.nickname.addEventListener('change', () => store.set('svc-chat-nickname', this.nickname.value.trim()));
      this.toggle.addEventListener('click', () => {
        this.collapsed = !this.collapsed;
        store.set('svc-chat-collapsed', String(this.collapsed));
        this.render();
        if (!this.collapsed) this.log.scrollTop = this.log.scrollHeight;
      });
      this.form.addEventListener('submit', (e) => {
        e.preventDefault();
        void this.send();
      });
      this.reactions.addEventListener('click', (e) => {
        const button = e.target.closest('.react');
        if (button) this.react(button.dataset.emoji);
      });
      this.log.addEventListener('click', (e) => {
        const button = e.target.closest('[data-action]');
        if (button) void this.moderate(button.dataset.action, button.closest('.msg').dataset.id);
      });
      this.slow.addEventListener('change', () => void this.slowMode(Number(this.slow.value)));
      setInterval(() => this.recent.length && this.countReactions(), 1000);
    },
  };
  chat.start();

  // ---------------------------------------------------------------- start

  // For tests and benchmarks: the lead measures delay through these.
  window.svcPlayer = {
    get hls() {
      return hls;
    },
    video,
    get state() {
      return state;
    },
    get playback() {
      return playback;
    },
    get engine() {
      return engine;
    },
    get embed() {
      return embed;
    },
    /** The channel embed read last applied (channel pages), else null. */
    get channel() {
      return channel;
    },
    get session() {
      return viewer.session;
    },
    /** The current personal playback address (members-only streams). */
    get personalUrl() {
      return personal.url;
    },
    /** The chat's anonymous identity and feed (`EventSource.readyState`, or null when closed). */
    chat: {
      get clientId() {
        return chat.clientIdValue;
      },
      get feed() {
        return chat.source ? chat.source.readyState : null;
      },
    },
    beats: beats.sent,
    get config() {
      return HLS_CONFIG;
    },
    latency,
  };

  /** A new token later (the client's site sets the frame's address again, say after access ended). */
  window.addEventListener('hashchange', () => {
    const taken = takeToken();
    if (!taken) return;
    clearTimeout(viewer.timer);
    clearTimeout(personal.timer);
    Object.assign(viewer, {
      token: taken.token,
      kind: taken.kind,
      refused: null,
      opening: !viewer.session,
      failures: 0,
    });
    personal.refusal = null;
    viewer.first = viewer.open();
    applyEmbed(embed);
  });

  root.dataset.playback = playback;
  if (viewer.token) viewer.first = viewer.open();
  applyEmbed(embed);
  announce(messageOf(state));
  beats.send();
  poll.schedule(channel ? pollAfter({ ...embed, poll_after_seconds: channel.poll_after_seconds }) : pollAfter(embed));
  // While waiting, fetch hls.js once the page is idle: going live then starts at once, and the
  // downloads of a crowd waiting for a start are spread out instead of all at go-live.
  if (state === 'waiting' && hasMse()) setTimeout(() => loadHls().catch(() => {}), 1000);
})();

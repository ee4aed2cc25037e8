/*
 * svc publish page: a browser goes live over WHIP (RFC 9725). Plain browser JavaScript, no
 * build step; loaded with `defer` by templates/player/publish.njk. The stream's secret is in the
 * address's fragment (`#key=...`), which browsers never send: it leaves the page only in the
 * WHIP request's Authorization header, never in a request line that a log could keep.
 */
(() => {
  'use strict';

  const root = document.getElementById('svc-publish');
  const $ = (id) => document.getElementById(id);
  const preview = $('preview');
  const cameras = $('camera');
  const microphones = $('microphone');
  const go = $('go');
  const stop = $('stop');
  const state = $('state');
  const error = $('error');
  const endpoint = `${root.dataset.whip}/${root.dataset.stream}`;
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  /**
   * What the page asks of the browser's encoder by the stream's declared size (short side); the
   * service accepts up to 1.5 / 4 / 6 Mbit/s. The first offer, before the size is known, asks for 720's.
   */
  const MAX_BITRATE = { 480: 1_200_000, 720: 2_500_000, 1080: 4_500_000 };
  const ICE_GATHER_MS = 2000;
  const EMBED_EVERY_MS = 3000;

  /** The WHIP endpoint's error codes, in words a speaker can act on. */
  const MESSAGES = {
    unauthorized: 'This publish link is not valid (the key is wrong or was replaced). Ask for a new link.',
    not_found: 'There is no such stream.',
    stream_ended: 'This stream is over; a link works for one broadcast.',
    already_publishing: 'Someone is already publishing to this stream.',
    simulcast_not_supported:
      'This browser sent several video layers (simulcast), which the service does not take. Try another browser.',
    codec_not_supported:
      'This browser cannot send H.264 video, which the service needs. Try Chrome, Edge, Safari or Firefox.',
    insufficient_credit: 'The account has no credit left.',
    tenant_suspended: 'The account is not active.',
    limit_live_streams: 'The account already has as many live streams as it may.',
    limit_ingest_hours: 'The account has used its publishing hours for this month.',
    no_capacity: 'The service is busy; try again in a minute.',
  };

  let media = null;
  let pc = null;
  let session = null;

  const setState = (s) => {
    root.dataset.state = s;
  };
  const fail = (message) => {
    error.textContent = message;
  };

  async function openDevices() {
    if (media) for (const track of media.getTracks()) track.stop();
    const video = cameras.value ? { deviceId: { exact: cameras.value } } : true;
    const audio = microphones.value ? { deviceId: { exact: microphones.value } } : true;
    try {
      media = await navigator.mediaDevices.getUserMedia({
        video: { ...(video === true ? {} : video), width: { ideal: 1280 }, height: { ideal: 720 } },
        audio,
      });
    } catch (err) {
      media = null;
      go.disabled = true;
      fail(
        err && err.name === 'NotAllowedError'
          ? 'The browser was not allowed to use the camera and microphone.'
          : 'No camera or microphone was found.',
      );
      return;
    }
    preview.srcObject = media;
    // Switching devices while live keeps the session: the senders take the new tracks.
    if (pc)
      for (const sender of pc.getSenders())
        if (sender.track)
          await sender.replaceTrack(media.getTracks().find((t) => t.kind === sender.track.kind) || null);
    await listDevices();
    go.disabled = pc !== null;
    fail('');
  }

  async function listDevices() {
    const devices = await navigator.mediaDevices.enumerateDevices();
    const fill = (select, kind, track) => {
      const current = track ? track.getSettings().deviceId : select.value;
      select.replaceChildren(
        ...devices
          .filter((d) => d.kind === kind)
          .map((d, i) => {
            const option = new Option(
              d.label || `${kind === 'videoinput' ? 'Camera' : 'Microphone'} ${i + 1}`,
              d.deviceId,
            );
            option.selected = d.deviceId === current;
            return option;
          }),
      );
    };
    fill(cameras, 'videoinput', media && media.getVideoTracks()[0]);
    fill(microphones, 'audioinput', media && media.getAudioTracks()[0]);
  }

  /** H.264 first (copied, not transcoded, by the service), packetization-mode 1 before 0. */
  function preferH264(transceiver) {
    if (!RTCRtpSender.getCapabilities || !transceiver.setCodecPreferences) return;
    const codecs = RTCRtpSender.getCapabilities('video').codecs;
    const rank = (c) => (/h264/i.test(c.mimeType) ? (/packetization-mode=1/.test(c.sdpFmtpLine || '') ? 0 : 1) : 2);
    transceiver.setCodecPreferences(codecs.slice().sort((a, b) => rank(a) - rank(b)));
  }

  /** The WHIP answer holds every candidate and takes no trickle: the offer must too. */
  const gathered = (conn) =>
    new Promise((resolve) => {
      if (conn.iceGatheringState === 'complete') return resolve();
      const timer = setTimeout(resolve, ICE_GATHER_MS);
      conn.addEventListener('icegatheringstatechange', () => {
        if (conn.iceGatheringState === 'complete') {
          clearTimeout(timer);
          resolve();
        }
      });
    });

  async function goLive() {
    if (!media) return;
    go.disabled = true;
    fail('');
    setState('connecting');
    pc = new RTCPeerConnection();
    for (const track of media.getTracks()) {
      const transceiver = pc.addTransceiver(track, {
        direction: 'sendonly',
        sendEncodings: track.kind === 'video' ? [{ maxBitrate: MAX_BITRATE[720] }] : undefined,
      });
      if (track.kind === 'video') {
        preferH264(transceiver);
        await holdResolution(transceiver.sender);
      }
    }
    pc.addEventListener('connectionstatechange', () => {
      if (pc && (pc.connectionState === 'failed' || pc.connectionState === 'closed'))
        end('The connection to the service was lost.');
    });
    try {
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc);
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', authorization: `Bearer ${key}` },
        body: pc.localDescription.sdp,
      });
      if (res.status !== 201) {
        const body = await res.json().catch(() => null);
        const code = body && body.error && body.error.code;
        return end(MESSAGES[code] || `The service refused (${res.status}).`);
      }
      session = new URL(res.headers.get('location'), endpoint).href;
      await pc.setRemoteDescription({ type: 'answer', sdp: await res.text() });
      await fitResolution(Number(res.headers.get('x-max-resolution')));
      stop.hidden = false;
      setState('publishing');
    } catch (err) {
      end(`Could not connect: ${err && err.message ? err.message : err}`);
    }
  }

  /**
   * The camera's size from the first frame: by default a browser starts small while its bandwidth
   * estimate ramps up (Chromium: 640x360, then 960x540, 1280x720 after ~8 s), and the service
   * would plan the stream's renditions for the small size. Holding the resolution makes the
   * encoder drop frames instead, only until the estimate has grown.
   */
  async function holdResolution(sender) {
    const params = sender.getParameters();
    params.degradationPreference = 'maintain-resolution';
    // Browsers without the setting keep their own choice; the service follows the size it gets.
    await sender.setParameters(params).catch(() => {});
  }

  /**
   * The stream declares its largest size (short side, either orientation); a camera above it is
   * scaled down by the encoder, or the service would end the stream `limit_resolution`.
   */
  async function fitResolution(max) {
    const sender = pc && pc.getSenders().find((s) => s.track && s.track.kind === 'video');
    if (!sender || !max) return;
    const { width, height } = sender.track.getSettings();
    const scale = Math.max(1, Math.min(width || 0, height || 0) / max);
    const params = sender.getParameters();
    if (!params.encodings || !params.encodings.length) params.encodings = [{}];
    params.encodings[0].scaleResolutionDownBy = scale;
    const fitting = Object.keys(MAX_BITRATE).find((size) => Number(size) >= max) || 1080;
    params.encodings[0].maxBitrate = MAX_BITRATE[fitting];
    await sender.setParameters(params);
  }

  /** Stops publishing; the stream stays live for its reconnect window, so going live again continues it. */
  function end(message) {
    if (session) fetch(session, { method: 'DELETE' }).catch(() => {});
    session = null;
    if (pc) pc.close();
    pc = null;
    stop.hidden = true;
    go.disabled = !media;
    setState('idle');
    fail(message || '');
  }

  const WORDS = {
    pending: 'waiting for you to go live',
    live: 'LIVE',
    ended: 'ended',
    expired: 'expired (no one went live in time)',
    cancelled: 'cancelled',
  };
  async function readEmbed() {
    try {
      const res = await fetch(root.dataset.embed, { cache: 'no-store' });
      if (res.ok) {
        const embed = await res.json();
        state.textContent = WORDS[embed.status] || embed.status;
        state.dataset.status = embed.status;
        if (embed.status === 'live' && root.dataset.state === 'publishing') setState('live');
        if (embed.status !== 'pending' && embed.status !== 'live' && pc) end('The stream has ended.');
      }
    } catch {
      // The next read tells.
    }
    setTimeout(readEmbed, EMBED_EVERY_MS);
  }

  go.addEventListener('click', goLive);
  stop.addEventListener('click', () => end(''));
  cameras.addEventListener('change', openDevices);
  microphones.addEventListener('change', openDevices);
  window.addEventListener('pagehide', () => end(''));
  readEmbed();
  if (!key) fail('This address has no key: use the full publish link (it ends with #key=...).');
  else if (!navigator.mediaDevices || !window.RTCPeerConnection)
    fail('Publishing needs a secure page (https) and a browser with WebRTC.');
  else openDevices();
})();

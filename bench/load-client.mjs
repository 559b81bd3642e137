// The load generator (plain JS, run with node, no loader): a process of its own, so that neither
// its clients' work nor its timestamps queue behind the server's event loop. It takes one job over
// the IPC channel, answers its figures and exits.
//   http:    each request by 1 and by 10 concurrent keep-alive clients; every duration (ms).
//   inbound: arrays of customers' messages posted to the simulator API, and the agent's socket;
//            per message its send time and the time its frame arrived, on this process's clock.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';

const now = () => performance.timeOrigin + performance.now();

/** One HTTP exchange on `agent`; resolves with its status and text. */
function exchange(agent, url, { method = 'GET', path, token, body }) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = { ...(token && { Authorization: `Bearer ${token}` }), ...(payload !== undefined && { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }) };
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** `count` requests (or as many as fit in `maxMs`) by `clients` loops, each on its own kept-alive connection. */
async function load(url, request, clients) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  // Warm-up: each client's connection open, the server's caches and JIT warm.
  await Promise.all(Array.from({ length: clients }, () => exchange(agent, url, request)));
  for (let k = 0; k < 5; k += 1) await exchange(agent, url, request);
  const durations = [];
  let failures = 0;
  let sample = '';
  let last;
  let issued = 0;
  const total = request.count * (clients > 1 ? 2 : 1);
  const started = performance.now();
  const deadline = started + request.maxMs;
  const client = async () => {
    while (issued < total && performance.now() < deadline) {
      issued += 1;
      const at = performance.now();
      const res = await exchange(agent, url, request);
      durations.push(performance.now() - at);
      if (res.status >= 300) {
        failures += 1;
        sample = `${res.status} ${res.text.slice(0, 200)}`;
      }
      last = res.text;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  let count = null;
  try {
    const answer = JSON.parse(last);
    count = answer.count ?? answer.tickets?.length ?? answer.messages?.length ?? null;
  } catch {
    // not JSON
  }
  return { clients, durations, seconds, failures, sample, count };
}

async function httpJob({ url, requests, clients }) {
  const results = [];
  for (const request of requests) {
    const runs = [];
    for (const c of clients) runs.push(await load(url, request, c));
    results.push({ label: request.label, runs });
  }
  return results;
}

/**
 * The agent's browser tab: one socket; `onFrame(key, at)` for each frame showing a bench message,
 * by its wid (appMessage create) or, when its ticket only then entered the agent's queue, by
 * "number|body" (the ticket update carrying it as last message).
 */
function agentSocket(url, token, companyId, prefix, onFrame) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?token=${token}`);
  ws.on('message', (raw) => {
    const at = now();
    const { channel, data } = JSON.parse(raw.toString());
    if (channel === `company-${companyId}-appMessage` && data?.action === 'create') {
      const wid = data.message?.wid;
      if (typeof wid === 'string' && wid.startsWith(prefix)) onFrame(wid, at);
    } else if (channel === `company-${companyId}-ticket` && data?.action === 'update' && data.ticket?.contact) {
      onFrame(`${data.ticket.contact.number}|${data.ticket.lastMessage}`, at);
    }
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/**
 * `clients` loops requesting GET `path` (a search, say) back to back beside an inbound phase, so
 * that phase's latencies show what other requests do to the pipeline; `stop` ends them and answers
 * their durations.
 */
function busyClients(url, token, { clients, path }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const durations = [];
  let failures = 0;
  let running = true;
  const loop = async () => {
    while (running) {
      const at = performance.now();
      const res = await exchange(agent, url, { path, token }).catch(() => ({ status: 0 }));
      durations.push(performance.now() - at);
      if (res.status !== 200) failures += 1;
    }
  };
  const loops = Promise.all(Array.from({ length: clients }, loop));
  return {
    async stop() {
      running = false;
      await loops;
      agent.destroy();
      return { clients, path, durations, failures };
    },
  };
}

/**
 * Inbound: phases of customers' messages posted as arrays to the simulator API. A message is in
 * flight from the moment its array is written to the socket (or, paced, from when it was due, if
 * that is earlier) until its frame reaches the agent's socket; the in-flight count is integrated
 * over time, independently of which frame matched which message, so Little's law checks the pairing.
 */
async function inboundJob({ url, adminToken, agentToken, companyId, connectionId, prefix, bodies, phases }) {
  const sentAt = new Map();
  /** "number|body" → wid, each customer's messages not yet shown (oldest first), and each message's array. */
  const byContent = new Map();
  const unseen = new Map();
  const arrayOf = new Map();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let inFlight = 0;
  let area = 0;
  let lastChange = now();
  const move = (at, delta) => {
    area += inFlight * (at - lastChange);
    lastChange = at;
    inFlight += delta;
  };
  let latencies = [];
  let lastFrame = 0;
  let wake;
  const shown = (wid, at) => {
    const sent = sentAt.get(wid);
    if (sent === undefined) return;
    sentAt.delete(wid);
    move(at, -1);
    latencies.push(at - sent);
    lastFrame = at;
  };
  const ws = await agentSocket(url, agentToken, companyId, prefix, (key, at) => {
    if (sentAt.has(key)) shown(key, at);
    else {
      const wid = byContent.get(key);
      if (wid === undefined) return;
      // A ticket update shows its last message, and so the customer's earlier ones it carries
      // (a ticket new to the agent gets no message frames; several messages may land in one update):
      // those sent before it, and those of arrays in flight with its own, which reach the server in
      // either order (storedCheck's rule), so one of them may be stored first and shown only here.
      const from = key.slice(0, key.indexOf('|'));
      const queue = unseen.get(from) ?? [];
      const upTo = queue.indexOf(wid);
      const answeredAt = arrayOf.get(wid)[3] ?? Infinity;
      const carried = new Set(queue.filter((other, k) => k <= upTo || (upTo >= 0 && arrayOf.get(other)[2] < answeredAt)));
      unseen.set(from, queue.filter((other) => !carried.has(other)));
      for (const other of carried) shown(other, at);
    }
    wake?.();
  });
  const frame = (timeoutMs) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve(true);
      };
    });

  let seq = 0;
  let httpFailures = 0;
  let httpSample = '';
  const pending = new Set();
  /** Each array posted: [its first message's seq, how many, posted at, answered at]. */
  let arrays = [];
  /**
   * Posts `n` messages from customers `customer(seq)` as one array; each is in flight from the time
   * `dueOf(seq)` it was due (a paced message waits for the tick that posts it), or from now.
   */
  const post = (n, customer, dueOf) => {
    const batch = [];
    const postedAt = now();
    const array = [seq, n, postedAt, undefined];
    arrays.push(array);
    for (let k = 0; k < n; k += 1) {
      const wid = `${prefix}${String(seq).padStart(8, '0')}`;
      // Landline-style numbers (55 11 3…): none of the dataset's contacts has one.
      const c = customer(seq);
      const from = `55113${String(c).padStart(7, '0')}`;
      const body = bodies[seq % bodies.length] + ` #${seq}`;
      byContent.set(`${from}|${body}`, wid);
      arrayOf.set(wid, array);
      if (!unseen.has(from)) unseen.set(from, []);
      unseen.get(from).push(wid);
      const sent = Math.min(dueOf?.(seq) ?? Infinity, postedAt);
      sentAt.set(wid, sent);
      // Counted in flight from when it was due; the clock of the count only moves forward.
      move(Math.max(sent, lastChange), 1);
      seq += 1;
      batch.push({ id: wid, from, name: `Cliente Bench ${c}`, body });
    }
    const request = exchange(agent, url, { method: 'POST', path: `/api/simulator/${connectionId}/inbound`, token: adminToken, body: batch }).then(
      (res) => {
        array[3] = now();
        if (res.status !== 201) {
          httpFailures += 1;
          httpSample = `${res.status} ${res.text.slice(0, 200)}`;
        }
      },
      (err) => {
        httpFailures += 1;
        httpSample = err.message;
      },
    );
    pending.add(request);
    void request.finally(() => pending.delete(request));
  };
  /** Waits until every message sent arrived, or nothing arrived for 30 s. */
  const drain = async () => {
    while (sentAt.size > 0) if (!(await frame(30_000))) break;
    await Promise.all(pending);
  };

  const results = [];
  for (const phase of phases) {
    const background = phase.background && busyClients(url, adminToken, phase.background);
    latencies = [];
    area = 0;
    lastChange = now();
    const firstSeq = seq;
    const started = now();
    // Customers arrive through the phase, a new one every `every` messages, as new chats mix into
    // the running ones over a day; each other message is from a chat already running (an earlier
    // phase's customers, `running`, or one arrived in this phase: a fixed pseudo-random pick), so a
    // phase starts where the day is, not with its first customer writing ten messages in a tick.
    // Every message from a new customer (`every` 1) is a burst of new chats.
    const every = Math.max(1, Math.floor(phase.messages / phase.customers));
    const running = phase.running ?? { from: 0, count: 0 };
    const customer = (s) => {
      const k = s - firstSeq;
      const arrived = Math.floor(k / every) + 1;
      if (k % every === 0) return phase.customersFrom + arrived - 1;
      const pick = (Math.imul(k, 2654435761) >>> 0) % (running.count + arrived);
      return pick < running.count ? running.from + pick : phase.customersFrom + pick - running.count;
    };
    if (phase.kind === 'window') {
      // Saturation: as many arrays as the window holds, a new one whenever room is made.
      while (seq - firstSeq < phase.messages && now() - started < phase.maxMs) {
        const n = Math.min(phase.batch, phase.messages - (seq - firstSeq));
        if (inFlight + n > phase.window) {
          // A pipeline that stalls this long has stopped: the phase ends and says what never arrived.
          if (!(await frame(30_000))) break;
          continue;
        }
        post(n, customer);
      }
    } else {
      // Paced: every tick, one array with the messages due by then; each in flight from when it was due.
      const perMs = phase.perSecond / 1000;
      while (seq - firstSeq < phase.messages && now() - started < phase.maxMs) {
        await sleep(phase.tickMs);
        // Far behind: the rate is not held; offering more would only lengthen the run.
        if (inFlight > phase.maxInFlight) break;
        const due = Math.min(phase.messages, Math.floor((now() - started) * perMs)) - (seq - firstSeq);
        for (let k = 0; k < due; k += phase.batch) {
          const n = Math.min(phase.batch, due - k);
          // The k-th message of the phase is due once k + 1 are (the count above).
          post(n, customer, (s) => started + (s - firstSeq + 1) / perMs);
        }
      }
    }
    const sendSeconds = (now() - started) / 1000;
    await drain();
    move(now(), 0);
    const busy = await background?.stop();
    const spanMs = Math.max(lastFrame, lastChange) - started;
    results.push({
      name: phase.name,
      sent: seq - firstSeq,
      sendSeconds,
      delivered: latencies.length,
      seconds: (lastFrame - started) / 1000,
      meanInFlight: area / spanMs,
      spanSeconds: spanMs / 1000,
      latencies,
      lost: sentAt.size,
      httpFailures,
      httpSample,
      arrays,
      ...(busy && { background: busy }),
    });
    arrays = [];
    sentAt.clear();
    byContent.clear();
    unseen.clear();
    arrayOf.clear();
    inFlight = 0;
  }
  ws.close();
  agent.destroy();
  return results;
}

process.once('message', async (job) => {
  try {
    const result = job.type === 'http' ? await httpJob(job) : await inboundJob(job);
    process.send({ type: 'result', result }, () => process.disconnect());
  } catch (err) {
    process.send({ type: 'error', message: err.stack ?? String(err) }, () => process.disconnect());
  }
});

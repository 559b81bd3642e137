// Worker (plain JS): one HTTP client sending each request of the list in turn, one at a time, on
// its own event loop; reports every duration (ms) per label.
import { parentPort, workerData } from 'node:worker_threads';

const { url, requests, warmup } = workerData;

async function once(request) {
  const headers = { Authorization: `Bearer ${request.token}` };
  let body;
  if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  const started = performance.now();
  const res = await fetch(url + request.path, { method: request.method ?? 'GET', headers, body });
  const text = await res.text();
  return { ms: performance.now() - started, status: res.status, text };
}

for (const request of requests) {
  for (let i = 0; i < warmup; i += 1) await once(request);
  const durations = [];
  let failures = 0;
  let sample = '';
  const deadline = performance.now() + request.maxMs;
  while (durations.length < request.count && performance.now() < deadline) {
    const { ms, status, text } = await once(request);
    if (status >= 300) {
      failures += 1;
      sample = `${status} ${text.slice(0, 200)}`;
    }
    durations.push(ms);
  }
  let count = null;
  try {
    const last = JSON.parse((await once(request)).text);
    count = last.count ?? last.tickets?.length ?? last.messages?.length ?? null;
  } catch {
    // not JSON
  }
  parentPort.postMessage({ type: 'result', label: request.label, durations, failures, sample, count });
}
parentPort.postMessage({ type: 'done' });

// Worker (plain JS: worker threads do not inherit tsx): opens N sockets and reports when each
// receives the bench frame, on its own event loop so the clients do not queue behind the server.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, tokens } = workerData;
const sockets = [];
let open = 0;

for (const token of tokens) {
  const ws = new WebSocket(`${url}/ws?token=${token}`);
  sockets.push(ws);
  ws.on('open', () => {
    open += 1;
    if (open === tokens.length) parentPort.postMessage({ type: 'ready' });
  });
  ws.on('message', (raw) => {
    const frame = JSON.parse(raw.toString());
    if (frame.channel?.endsWith('-bench')) parentPort.postMessage({ type: 'received', at: performance.timeOrigin + performance.now() });
  });
  ws.on('error', (err) => parentPort.postMessage({ type: 'error', message: err.message }));
}

parentPort.on('message', (message) => {
  if (message === 'close') {
    for (const ws of sockets) ws.close();
    setTimeout(() => process.exit(0), 200);
  }
});

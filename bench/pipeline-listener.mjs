// Worker (plain JS: worker threads do not inherit tsx): the agent's browser tab. Holds one socket
// and reports when each bench message shows on it, on its own event loop so the timestamps do not
// wait behind the server's work. A message shows as its appMessage create frame or, when its
// ticket only then entered the agent's queue, as the ticket update carrying it as last message.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, token, companyId, prefix } = workerData;
const ws = new WebSocket(`${url}/ws?token=${token}`);

ws.on('open', () => parentPort.postMessage({ type: 'ready' }));
ws.on('message', (raw) => {
  const at = performance.timeOrigin + performance.now();
  const { channel, data } = JSON.parse(raw.toString());
  if (channel === `company-${companyId}-appMessage` && data?.action === 'create') {
    const wid = data.message?.wid;
    if (typeof wid === 'string' && wid.startsWith(prefix)) parentPort.postMessage({ type: 'frame', key: wid, at });
  } else if (channel === `company-${companyId}-ticket` && data?.action === 'update' && data.ticket?.contact) {
    parentPort.postMessage({ type: 'frame', key: `${data.ticket.contact.number}|${data.ticket.lastMessage}`, at });
  }
});
ws.on('error', (err) => parentPort.postMessage({ type: 'error', message: err.message }));

parentPort.on('message', (message) => {
  if (message === 'close') {
    ws.close();
    setTimeout(() => process.exit(0), 100);
  }
});

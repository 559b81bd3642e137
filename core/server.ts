import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from './container.js';
import { createHttpApp, type ApiRoute, type PluginRouter } from './http/app.js';

export interface RunningServer {
  server: Server;
  url: string;
  routes: ApiRoute[];
  close(): Promise<void>;
}

/**
 * Listens for HTTP and websocket traffic, with the plugins' routers under /api after the
 * core's; a worker node takes no socket (and answers only its health check, see createHttpApp).
 * close() stops accepting, lets in-flight requests finish (up to `graceMs`), then closes
 * sockets; the caller closes the database afterwards.
 */
export async function listen(c: Container, port: number, host: string, plugins: PluginRouter[] = []): Promise<RunningServer> {
  const { app, routes } = createHttpApp(c, plugins);
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  if (c.config.role !== 'worker') c.realtime.attach(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    routes,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await c.realtime.close();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

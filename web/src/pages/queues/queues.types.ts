import type { Queue, QueueOptionNode } from '../../api/types';

export type { Queue, QueueOptionNode };

/** The server's order: queues with an order first (by it), then the rest; by name, then id. */
export function byQueueOrder(a: Queue, b: Queue): number {
  const order = (q: Queue) => q.orderQueue ?? Number.POSITIVE_INFINITY;
  return order(a) - order(b) || a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id;
}

import type { Queue } from '../../api/types';

export type { Queue };

/** A chatbot option as GET /api/queue-options answers it: with its branch. */
export interface QueueOptionNode {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  /** The key the customer types. */
  option: string;
  children: QueueOptionNode[];
}

/** The server's order: queues with an order first (by it), then the rest; by name, then id. */
export function byQueueOrder(a: Queue, b: Queue): number {
  const order = (q: Queue) => q.orderQueue ?? Number.POSITIVE_INFINITY;
  return order(a) - order(b) || a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id;
}

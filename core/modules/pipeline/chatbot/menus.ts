import type { QueueOption } from '../../queue-options/queue-option.model.js';
import type { Queue } from '../../queues/queue.model.js';

/** The keys the options tree reserves (docs/decisions.md, Directory). */
export const BACK_KEY = '0';
export const MAIN_MENU_KEY = '#';

const BACK_LINE = '*[ 0 ]* - Voltar';
const MAIN_MENU_LINE = '*[ # ] -* Menu inicial';

/** Blocks of a message separated by a blank line; empty blocks left out. */
function paragraphs(...blocks: string[]): string {
  return blocks
    .map((b) => b.trim())
    .filter(Boolean)
    .join('\n\n');
}

/** The queue menu: the connection's greeting, then `*[ n ]* - <queue>` from 1. */
export function queueMenuText(greeting: string, queues: Pick<Queue, 'name'>[]): string {
  return paragraphs(greeting, queues.map((q, i) => `*[ ${i + 1} ]* - ${q.name}`).join('\n'));
}

/** A level's options ordered by key, numbers by value ('2' before '10'). */
export function childrenOf(options: QueueOption[], parentId: number | null): QueueOption[] {
  return options
    .filter((o) => o.parentId === parentId)
    .sort((a, b) => a.option.localeCompare(b.option, undefined, { numeric: true }) || a.id - b.id);
}

function optionLines(children: QueueOption[]): string {
  return children.map((o) => `*[ ${o.option} ]* - ${o.title}`).join('\n');
}

/** A queue's first level: its greeting, its options and the way back to the queue menu. */
export function queueOptionsText(queue: Pick<Queue, 'greetingMessage'>, roots: QueueOption[]): string {
  return paragraphs(queue.greetingMessage, `${optionLines(roots)}\n${MAIN_MENU_LINE}`);
}

/** An option with children: its message, its children, back and main menu. */
export function optionMenuText(option: QueueOption, children: QueueOption[]): string {
  return paragraphs(option.message, `${optionLines(children)}\n${BACK_LINE}\n${MAIN_MENU_LINE}`);
}

import { useCallback, useEffect, useState } from 'react';

export interface Task {
  id: string;
  text: string;
  createdAt: string;
  /** Set when the text was edited. */
  updatedAt?: string;
}

/** The browser storage key of the list (JSON array of tasks). */
export const TODOLIST_KEY = 'todolist';

function isTask(value: unknown): value is Task {
  const task = value as Partial<Task> | null;
  return typeof task?.id === 'string' && typeof task.text === 'string' && typeof task.createdAt === 'string';
}

/** The stored tasks; anything unreadable in storage counts as an empty list. */
function readTasks(): Task[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(TODOLIST_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter(isTask) : [];
  } catch {
    return [];
  }
}

const newId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * The local to-do list: kept in this browser's storage, shared by its tabs. Blank text is ignored,
 * both when adding and when editing.
 */
export function useTodoList() {
  const [tasks, setTasks] = useState<Task[]>(readTasks);

  // Another tab changed the list.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === TODOLIST_KEY || event.key === null) setTasks(readTasks());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const change = useCallback((update: (current: Task[]) => Task[]) => {
    setTasks((current) => {
      const next = update(current);
      localStorage.setItem(TODOLIST_KEY, JSON.stringify(next));
      return next;
    });
  }, []);

  /** Adds a task; answers false (and adds nothing) for blank text. */
  const add = useCallback(
    (text: string): boolean => {
      const trimmed = text.trim();
      if (!trimmed) return false;
      change((current) => [...current, { id: newId(), text: trimmed, createdAt: new Date().toISOString() }]);
      return true;
    },
    [change],
  );

  /** Replaces a task's text; blank text leaves the task as it was. */
  const edit = useCallback(
    (id: string, text: string): void => {
      const trimmed = text.trim();
      if (!trimmed) return;
      change((current) =>
        current.map((task) => (task.id === id && task.text !== trimmed ? { ...task, text: trimmed, updatedAt: new Date().toISOString() } : task)),
      );
    },
    [change],
  );

  const remove = useCallback((id: string) => change((current) => current.filter((task) => task.id !== id)), [change]);

  return { tasks, add, edit, remove };
}

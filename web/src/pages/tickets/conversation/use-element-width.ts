import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * The width of an element, kept current: the conversation lays itself out by the pane it gets
 * (the tickets page's right pane, a peek modal, a whole phone screen), not by the window.
 */
export function useElementWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

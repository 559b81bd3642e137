import { useCallback, useMemo, useSyncExternalStore } from 'react';

/** Whether the browser matches a media query (e.g. the system's dark theme), followed live. */
export function useMediaQuery(query: string): boolean {
  const list = useMemo(() => window.matchMedia(query), [query]);
  // One subscription per query: a new subscribe function on each render would subscribe again.
  const subscribe = useCallback(
    (onChange: () => void) => {
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [list],
  );
  return useSyncExternalStore(subscribe, () => list.matches);
}

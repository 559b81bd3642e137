import { useCallback, useState } from 'react';

/** The browser key the old product used; absent means on. */
const SIGN_KEY = 'signOption';

/** Whether the agent signs messages with their name: one choice per browser, kept across sessions. */
export function useSignOption(): [boolean, () => void] {
  const [sign, setSign] = useState(() => localStorage.getItem(SIGN_KEY) !== 'false');
  const toggle = useCallback(() => {
    setSign((current) => {
      localStorage.setItem(SIGN_KEY, String(!current));
      return !current;
    });
  }, []);
  return [sign, toggle];
}

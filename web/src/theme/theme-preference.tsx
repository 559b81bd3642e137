import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

export type ThemeMode = 'light' | 'dark';

const THEME_KEY = 'preferredTheme';
const SYSTEM_DARK = '(prefers-color-scheme: dark)';

interface ThemePreference {
  mode: ThemeMode;
  toggle(): void;
}

const ThemeContext = createContext<ThemePreference>({ mode: 'light', toggle: () => {} });

function storedMode(): ThemeMode | null {
  const stored = localStorage.getItem(THEME_KEY);
  return stored === 'dark' || stored === 'light' ? stored : null;
}

const systemMode = (): ThemeMode => (window.matchMedia(SYSTEM_DARK).matches ? 'dark' : 'light');

/** The theme the user chose with the top bar's toggle; until they choose, the system's, followed live. */
export function ThemePreferenceProvider({ children }: { children: ReactNode }) {
  const [chosen, setChosen] = useState<ThemeMode | null>(storedMode);
  const [system, setSystem] = useState<ThemeMode>(systemMode);
  const mode = chosen ?? system;

  useEffect(() => {
    const query = window.matchMedia(SYSTEM_DARK);
    const follow = () => setSystem(query.matches ? 'dark' : 'light');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);

  // Scroll bars and form controls outside antd follow too.
  useEffect(() => {
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  const toggle = () => {
    const next = mode === 'dark' ? 'light' : 'dark';
    localStorage.setItem(THEME_KEY, next);
    setChosen(next);
  };
  return <ThemeContext.Provider value={{ mode, toggle }}>{children}</ThemeContext.Provider>;
}

export function useThemePreference(): ThemePreference {
  return useContext(ThemeContext);
}

import { createContext, useContext, useState, type ReactNode } from 'react';

export type ThemeMode = 'light' | 'dark';

const THEME_KEY = 'preferredTheme';

interface ThemePreference {
  mode: ThemeMode;
  toggle(): void;
}

const ThemeContext = createContext<ThemePreference>({ mode: 'light', toggle: () => {} });

export function ThemePreferenceProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(() => (localStorage.getItem(THEME_KEY) === 'dark' ? 'dark' : 'light'));
  const toggle = () => {
    const next = mode === 'dark' ? 'light' : 'dark';
    localStorage.setItem(THEME_KEY, next);
    setMode(next);
  };
  return <ThemeContext.Provider value={{ mode, toggle }}>{children}</ThemeContext.Provider>;
}

export function useThemePreference(): ThemePreference {
  return useContext(ThemeContext);
}
